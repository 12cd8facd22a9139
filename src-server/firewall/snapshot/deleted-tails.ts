import { type DecisionKey, deletedDecisionJson, identityOf } from '../model/index.ts';
import { expandRange } from './range-expansion.ts';
import type { DecisionLog } from './decision-log.ts';
import type { DecisionSnapshot } from './decision-snapshot.ts';
import type { PublishedDecisions } from './published-decisions.ts';

const DELETED_OPEN = '],"deleted":[';
/** Distinct (cursor, snapshot, form) answers kept per log version; keys polling in step share one. */
const MAX_CACHED = 4096;

/**
 * The end of a stream answer, `],"deleted":[…]}`, for a cursor at `since` served `snapshot`.
 * Rendered once per (cursor version, snapshot version, form) and shared: after a change, the
 * thousand keys that were all at the previous version get the same string, not a thousand renders.
 */
export class DeletedTails {
  private readonly cache = new Map<string, { tail: string; count: number }>();
  private cachedAt = -1;
  /** How many tails were rendered (not served from the cache): tests check it does not grow with the keys. */
  renders = 0;

  constructor(
    private readonly log: DecisionLog,
    private readonly published: PublishedDecisions,
  ) {}

  tail(since: number | undefined, snapshot: DecisionSnapshot, expanded: boolean): { tail: string; count: number } {
    if (since === undefined || since >= snapshot.version) return { tail: `${DELETED_OPEN}]}`, count: 0 };
    if (this.cachedAt !== this.log.version || this.cache.size >= MAX_CACHED) {
      this.cache.clear();
      this.cachedAt = this.log.version;
    }
    const cacheKey = `${since}:${snapshot.version}:${expanded ? 1 : 0}`;
    let hit = this.cache.get(cacheKey);
    if (!hit) {
      this.renders++;
      const { keys } = this.log.removedSince(since, snapshot.version);
      const json = (expanded ? expandKeys(keys, this.published) : keys).map(deletedDecisionJson);
      hit = { tail: `${DELETED_OPEN}${json.join(',')}]}`, count: json.length };
      this.cache.set(cacheKey, hit);
    }
    return hit;
  }
}

/**
 * Removed ranges as their addresses, for keys that were served them that way, minus what is still
 * published to those keys (an address another entry still covers is not deleted).
 */
function expandKeys(keys: DecisionKey[], published: PublishedDecisions): DecisionKey[] {
  const out: DecisionKey[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    for (const value of expandRange(key.value) ?? [key.value]) {
      const identity = identityOf({ value, scenario: key.scenario });
      if (seen.has(identity) || published.expandedHas(identity)) continue;
      seen.add(identity);
      out.push({ value, scenario: key.scenario });
    }
  }
  return out;
}
