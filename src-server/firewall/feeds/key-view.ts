import type { Cidr } from '../../net/cidr.ts';
import { parseCidr } from '../../net/cidr.ts';

import { aggregateEntries } from './cidr-aggregation.ts';
import {
  decisionParts,
  FIXED_NEVER_BANNED,
  identityOf,
  MANUAL_DURATION,
  secondsLeft,
  type DecisionParts,
} from '../model/index.ts';
import type { FirewallState } from '../filters/index.ts';
import { expandRange, MAX_EXPANDED_PREFIX, type DecisionSnapshotCache } from '../snapshot/index.ts';
import { entryOf, selectCapped, selectCappedMembers, type CapSelection, type KeyEntry } from './key-caps.ts';
import { protectedCidrs } from './blocklist.ts';

/** A key's export options that change what it receives (from its api_keys row). */
export interface KeyExportOptions {
  /** At most this many entries; null: every one. */
  entryCap: number | null;
  aggregate: boolean;
  /** Ranges up to /16 (/112) as single addresses (nftables-mode bouncers): they count as that many against the cap. */
  expandRanges?: boolean;
}

/** Whether a key has its own view; every other key is served the shared snapshot, as fast as before. */
export const hasOwnView = (options: KeyExportOptions) => options.entryCap !== null || options.aggregate;

/** What a capped or aggregated key receives at one snapshot version. */
export interface KeyView extends Omit<CapSelection, 'kept'> {
  /** The options it was built for, as text: feeds cache by it. */
  name: string;
  version: number;
  cap: number | null;
  /** The entries it receives, after the cap, aggregation and (for expanding keys) expansion. */
  entries: readonly KeyEntry[];
  identities: ReadonlySet<string>;
  /** The values it carries (a bouncer deletes by value: nothing in `new` is also deleted). */
  values: ReadonlySet<string>;
  /** The last `new` text and the second it was rendered for (durations tick by the second). */
  rendered?: { second: number; text: string };
  /** The JSON of each entry split around its duration, rendered once per view. */
  parts: readonly DecisionParts[];
}

/** What an entry costs on an expanding key's device: a range within the limit is that many addresses. */
function expandedWeight(entry: KeyEntry): number {
  const cidr = entry.key.value.includes('/') ? parseCidr(entry.key.value) : undefined;
  if (!cidr) return 1;
  const family = cidr[0].kind();
  if (cidr[1] < MAX_EXPANDED_PREFIX[family]) return 1;
  return 2 ** ((family === 'ipv4' ? 32 : 128) - cidr[1]);
}

/** Kept entries as an expanding key receives them: ranges within the limit as their addresses (the longest end wins). */
function expanded(entries: readonly KeyEntry[]): KeyEntry[] {
  const byIdentity = new Map<string, KeyEntry>();
  for (const entry of entries)
    for (const value of expandRange(entry.key.value) ?? [entry.key.value]) {
      const key = value === entry.key.value ? entry.key : { ...entry.key, value };
      const piece = value === entry.key.value ? entry : { ...entry, key, identity: identityOf(key) };
      const known = byIdentity.get(piece.identity);
      if (!known || (known.expiresAt !== null && (piece.expiresAt === null || piece.expiresAt > known.expiresAt)))
        byIdentity.set(piece.identity, piece);
    }
  return [...byIdentity.values()];
}

/**
 * The one place a capped or aggregated key's set is made, for the stream and the router feed
 * alike (`entriesForKey`): from the members the shared snapshot was built from, selected by
 * priority (`key-caps.ts`), merged (`cidr-aggregation.ts`), expanded for nftables keys. A view is
 * built once per (snapshot version, options) and shared by every key with those options; keys
 * without a cap or aggregation never come here.
 */
export class KeyViews {
  private readonly cache = new Map<string, KeyView>();
  private cachedAt = '';
  /** How many views were built (tests check keys with the same options share one). */
  builds = 0;

  constructor(
    private readonly snapshots: DecisionSnapshotCache,
    private readonly state: FirewallState,
  ) {}

  entriesForKey(options: KeyExportOptions): KeyView {
    const snapshot = this.snapshots.get();
    const stamp = `${snapshot.version}:${this.state.revision}`;
    if (stamp !== this.cachedAt) {
      this.cache.clear();
      this.cachedAt = stamp;
    }
    const key = `${options.entryCap}:${options.aggregate ? 1 : 0}:${options.expandRanges ? 1 : 0}`;
    let view = this.cache.get(key);
    if (!view) {
      view = this.build(options, snapshot.version, key);
      this.cache.set(key, view);
    }
    return view;
  }

  private build(options: KeyExportOptions, version: number, name: string): KeyView {
    this.builds++;
    const now = this.snapshots.now();
    const members = this.snapshots.published.plain.values();
    // Expanded ranges weigh their addresses: the general selection. Otherwise only the class at the cap is sorted.
    const { kept, leftOut, leftOutOwn } =
      options.entryCap !== null && !options.expandRanges
        ? selectCappedMembers(members, options.entryCap, now)
        : selectCapped(
            [...members].map((member) => entryOf(member, now)),
            options.entryCap,
            options.expandRanges ? expandedWeight : undefined,
          );
    let entries = options.aggregate ? aggregateEntries(kept, this.protectedRanges(now)) : kept;
    if (options.expandRanges) entries = expanded(entries);
    return {
      name,
      version,
      cap: options.entryCap,
      leftOut,
      leftOutOwn,
      entries,
      identities: new Set(entries.map((entry) => entry.identity)),
      values: new Set(entries.map((entry) => entry.key.value)),
      parts: entries.map((entry) => decisionParts(entry.key)),
    };
  }

  /** What aggregation must never reach into: loopback and unspecified, trusted networks, the whitelist. */
  private protectedRanges(now: number): Cidr[] {
    return [
      ...FIXED_NEVER_BANNED.map((range) => range.cidr),
      ...protectedCidrs(this.state.filters, this.state.settings, now),
    ];
  }
}

/** A view's `new` content (comma-separated decisions, no brackets) with durations as of `now`. */
export function renderView(view: KeyView, now: number): string {
  const second = Math.floor(now / 1000);
  if (view.rendered?.second === second) return view.rendered.text;
  const out: string[] = new Array(view.entries.length);
  for (let i = 0; i < view.entries.length; i++) {
    const { expiresAt } = view.entries[i]!;
    const { head, tail } = view.parts[i]!;
    out[i] = head + (expiresAt === null ? MANUAL_DURATION : `${secondsLeft(expiresAt, now)}s`) + tail;
  }
  view.rendered = { second, text: out.join(',') };
  return view.rendered.text;
}

/** A view's entries as the router feed reads members: a filter entry never ends, anything else ends when it does. */
export function* asFeedMembers(view: KeyView): Iterable<{
  key: KeyEntry['key'];
  filterRefs: number;
  ban: { expiresAt: number } | undefined;
}> {
  for (const { key, expiresAt } of view.entries)
    yield { key, filterRefs: expiresAt === null ? 1 : 0, ban: expiresAt === null ? undefined : { expiresAt } };
}
