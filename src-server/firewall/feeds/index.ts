export { blocklistFeed, gzippedFeed } from './blocklist-feed.ts';
export type { RenderedFeed } from './blocklist-feed.ts';
export { parseBlocklistQuery } from './blocklist.ts';
export { FeedCursors } from './blocklist-deltas.ts';
export { KeyViews, asFeedMembers, hasOwnView, renderView } from './key-view.ts';
export type { KeyExportOptions, KeyView } from './key-view.ts';
export { AGGREGATE_ORIGIN, AGGREGATE_SCENARIO, aggregateEntries } from './cidr-aggregation.ts';
export { byPriority, capStatusText, entryOf, selectCapped, selectCappedMembers, zeroCounts } from './key-caps.ts';
export type { CapSelection, ClassCounts, KeyEntry } from './key-caps.ts';
