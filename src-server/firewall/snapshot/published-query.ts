import type { Candidate, DecisionQuery } from './decision-query.ts';
import type { DecisionSnapshotCache } from './decision-snapshot.ts';
import { memberCidr, renderMember, type Member } from './published-decisions.ts';

/**
 * The published decisions a `/v1/decisions` query may select. A single-address question (live
 * mode) needs only the members of that exact value and the ranges, which may hold it; anything
 * else scans the set.
 */
export function publishedCandidates(snapshots: DecisionSnapshotCache, query: DecisionQuery): Candidate[] {
  const { published } = snapshots;
  const now = snapshots.now();
  const candidate = (member: Member): Candidate => ({
    key: member.key,
    cidr: memberCidr(member),
    json: () => renderMember(member, now),
  });
  const range = query.range;
  const single = range?.contains && (range.cidr[1] === 32 || range.cidr[1] === 128);
  if (!single) return [...published.plain.values()].map(candidate);
  const value = range.cidr[0].toString();
  const out: Candidate[] = [];
  for (const scenario of published.scenarios) {
    const member = published.get({ value, scenario });
    if (member) out.push(candidate(member));
  }
  for (const member of published.ranges) out.push(candidate(member));
  return out;
}
