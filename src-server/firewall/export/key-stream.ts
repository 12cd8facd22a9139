import { REPEAT_POLLS } from './cursor-store.ts';
import { AGGREGATE_ORIGIN, AGGREGATE_SCENARIO, type KeyView } from '../feeds/index.ts';
import { deletedDecisionJson, identityOf, type DecisionKey } from '../model/index.ts';
import { expandRange, type DecisionLog, type PublishedDecisions } from '../snapshot/index.ts';

/** What a key was last served and what it still has to be told is gone (each told on REPEAT_POLLS answers). */
interface KeyState {
  /** The view its last answer carried (views are shared and immutable: the same object means the same set). */
  served: KeyView | undefined;
  pending: Map<string, { key: DecisionKey; left: number }>;
}

/** Keys as an expanding key holds them: ranges within the limit as their addresses. */
function expandKeys(keys: Iterable<DecisionKey>): DecisionKey[] {
  const out: DecisionKey[] = [];
  for (const key of keys) for (const value of expandRange(key.value) ?? [key.value]) out.push({ ...key, value });
  return out;
}

/**
 * `deleted` for keys with their own view (a cap, aggregation). The shared log says what left the
 * published set; what a key's view dropped while still published (a cap change, own bans pushing
 * upstream ones out, a merged CIDR split) only the key's last answer knows, so each such key keeps
 * what it was served and repeats each drop on its next REPEAT_POLLS answers, like the log's.
 * In memory: after a restart, or the first time a key is capped, everything published that its
 * view leaves out is deleted (a superset, harmless). Keys without a view never come here.
 */
export class KeyStreams {
  private readonly keys = new Map<number, KeyState>();

  constructor(
    private readonly log: DecisionLog,
    private readonly published: PublishedDecisions,
    /** Merged CIDRs each key was served before this start: still deleted on its next answers. */
    restored: ReadonlyMap<number, readonly string[]> = new Map(),
  ) {
    for (const [keyId, values] of restored) {
      const pending = new Map<string, { key: DecisionKey; left: number }>();
      for (const value of values) {
        const key = { value, scenario: AGGREGATE_SCENARIO, origin: AGGREGATE_ORIGIN };
        pending.set(identityOf(key), { key, left: REPEAT_POLLS });
      }
      this.keys.set(keyId, { served: undefined, pending });
    }
  }

  /** The deletions of a view key's answer; `record` (a GET) moves its state on. */
  deleted(
    keyId: number,
    view: KeyView,
    since: number | undefined,
    startup: boolean,
    record: boolean,
    expand: boolean,
  ): string[] {
    const known = this.keys.get(keyId);
    const state: KeyState = { served: known?.served, pending: new Map(known?.pending) };
    const out = new Map<string, DecisionKey>();
    if (startup) state.pending.clear();
    else if (known?.served !== view) {
      // Not known to hold a view (never polled with one, restarted, or served the whole set since):
      // it may hold anything published.
      const before = known?.served
        ? known.served.entries.map((entry): [string, DecisionKey] => [entry.identity, entry.key])
        : since === undefined
          ? []
          : this.everythingPublished(expand);
      for (const [identity, key] of before)
        if (!view.identities.has(identity)) state.pending.set(identity, { key, left: REPEAT_POLLS });
      for (const [identity] of state.pending) if (view.identities.has(identity)) state.pending.delete(identity);
    }
    if (!startup) {
      if (since !== undefined) {
        const removed = this.log.removedSince(since, view.version).keys;
        for (const key of expand ? expandKeys(removed) : removed) out.set(identityOf(key), key);
      }
      for (const [identity, { key }] of state.pending) out.set(identity, key);
    }
    if (record) {
      for (const [identity, entry] of state.pending)
        if (entry.left <= 1) state.pending.delete(identity);
        else state.pending.set(identity, { key: entry.key, left: entry.left - 1 });
      state.served = view;
      this.keys.set(keyId, state);
    }
    if (out.size === 0) return [];
    // No value both in `new` and in `deleted` (bouncers delete by value).
    return [...out.values()].filter((key) => !view.values.has(key.value)).map(deletedDecisionJson);
  }

  /**
   * A key that no longer has a view (its cap or aggregation removed) is served the shared
   * snapshot; what its view sent that is not published now (merged CIDRs) is still deleted on its
   * next answers. Undefined for every key that never had a view: one map lookup.
   */
  leftovers(keyId: number, isPublished: (identity: string) => boolean, record: boolean): string[] | undefined {
    const known = this.keys.get(keyId);
    if (!known) return undefined;
    const pending = new Map(known.pending);
    for (const { identity, key } of known.served?.entries ?? [])
      if (!pending.has(identity)) pending.set(identity, { key, left: REPEAT_POLLS });
    // Not what is published now, nor a value published under another scenario (bouncers delete by value).
    const held = (key: DecisionKey) =>
      [...this.published.scenarios].some((scenario) => isPublished(identityOf({ value: key.value, scenario })));
    const out = [...pending].filter(([, { key }]) => !held(key)).map(([, { key }]) => deletedDecisionJson(key));
    if (record) {
      for (const [identity, entry] of pending)
        if (entry.left <= 1 || held(entry.key)) pending.delete(identity);
        else pending.set(identity, { key: entry.key, left: entry.left - 1 });
      if (pending.size === 0) this.keys.delete(keyId);
      else this.keys.set(keyId, { served: undefined, pending });
    }
    return out;
  }

  private *everythingPublished(expand: boolean): Iterable<[string, DecisionKey]> {
    for (const member of this.published.plain.values()) {
      if (!expand) yield [member.identity, member.key];
      else for (const key of expandKeys([member.key])) yield [identityOf(key), key];
    }
  }
}
