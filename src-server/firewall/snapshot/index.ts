export { CHUNKS } from './chunked-decisions.ts';
export { GZIP_ABOVE_BYTES, NEW_OPEN, SnapshotCompressor } from './compressed-snapshot.ts';
export { DecisionLog } from './decision-log.ts';
export { matches, parseDecisionQuery } from './decision-query.ts';
export { DecisionSnapshotCache, snapshotCount, snapshotParts } from './decision-snapshot.ts';
export { DeletedTails } from './deleted-tails.ts';
export type { Member } from './published-decisions.ts';
export { publishedCandidates } from './published-query.ts';
