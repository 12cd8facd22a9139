import { randomBytes } from 'node:crypto';
import type { BlocklistEntry, BlocklistOptions } from './blocklist.ts';
import { cursorLine, mikrotik, routerTimeout } from './blocklist-formats.ts';
import { routerOsString } from './feed-encoding.ts';

/** A filter entry's router timeout (596 h) is renewed by a full fetch at least this often. */
export const FULL_EVERY_MS = 86_400_000;
/** What a key's router was sent, kept per key and options: the latest and the one before (an answer lost on the way). */
const KEPT_STATES = 2;
/** A cursor as the feed hands it out; anything else in `since=` is an unknown cursor (a full answer). */
const TOKEN = /^[A-Za-z0-9_-]{1,64}$/u;

/** What a key's router holds after running one feed answer. */
export interface SentState {
  token: string;
  /** The entries as sent (sorted by value, shared with the feed's cache). */
  entries: readonly BlocklistEntry[];
  /** When the chain of deltas this state ends started with a full answer. */
  fullAt: number;
}

/** Whether two entry lists would put the same entries on a router (the feed's cache shares one array per change). */
function sameEntries(a: readonly BlocklistEntry[], b: readonly BlocklistEntry[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((x, i) => x.value === b[i]!.value && x.expiresAt === b[i]!.expiresAt && x.scenario === b[i]!.scenario);
}

/**
 * Per key (and feed options), what its MikroTik router was last sent, in memory: the cursor a
 * router hands back in `since=` names one of these, and the answer is the difference between it and
 * what the key should hold now. An unknown cursor (never issued, too old, from before a restart,
 * after a resync) gets the full list, which swap-loads: a router can always run what it gets.
 */
export class FeedCursors {
  private readonly states = new Map<number, Map<string, SentState[]>>();

  /** The state a router at `since` holds, when still known and not due for its daily full answer. */
  known(keyId: number, optionsKey: string, since: string | undefined, now: number): SentState | undefined {
    if (since === undefined || !TOKEN.test(since)) return undefined;
    const state = this.states
      .get(keyId)
      ?.get(optionsKey)
      ?.find((s) => s.token === since);
    return state && now - state.fullAt < FULL_EVERY_MS ? state : undefined;
  }

  /**
   * Records what this answer hands over: a delta from `from` or a full list (no `from`). Unchanged
   * entries keep the latest state's cursor, so a quiet feed answers the same text (and ETag).
   */
  sent(
    keyId: number,
    optionsKey: string,
    entries: readonly BlocklistEntry[],
    now: number,
    from?: SentState,
  ): SentState {
    let byOptions = this.states.get(keyId);
    if (!byOptions) this.states.set(keyId, (byOptions = new Map()));
    const kept = byOptions.get(optionsKey) ?? [];
    const latest = kept[kept.length - 1];
    if (latest && sameEntries(latest.entries, entries) && (from === latest || from === undefined)) {
      if (from === undefined) latest.fullAt = now;
      return latest;
    }
    const state: SentState = { token: randomBytes(12).toString('base64url'), entries, fullAt: from?.fullAt ?? now };
    byOptions.set(optionsKey, [...kept.slice(1 - KEPT_STATES), state]);
    return state;
  }

  /** A resync: the key's next fetch of any feed is a full one. */
  forgetKey(keyId: number): void {
    this.states.delete(keyId);
  }

  /** Drops what was sent to keys that no longer exist (a deleted key never fetches again). */
  keepOnly(keyIds: ReadonlySet<number>): void {
    for (const keyId of this.states.keys()) if (!keyIds.has(keyId)) this.states.delete(keyId);
  }
}

/** Who fetches a MikroTik feed and from which cursor: its answer is then a delta or a full list, recorded for the key. */
export interface MikrotikFetch {
  keyId: number;
  since?: string;
}

/** Feed options as one text (a key's routers may fetch several lists). */
const optionsKey = (o: BlocklistOptions) =>
  `${o.ipv4only ? 4 : ''}${o.ipv6only ? 6 : ''}|${o.origin?.toLowerCase() ?? ''}|${o.listname}`;

/** A key's MikroTik answer: the difference from what it was sent (`since`), else the full list; recorded either way. */
export function mikrotikAnswer(
  cursors: FeedCursors,
  fetch: MikrotikFetch,
  options: BlocklistOptions,
  entries: readonly BlocklistEntry[],
  now: number,
): { text: string; token: string } {
  const key = optionsKey(options);
  const from = cursors.known(fetch.keyId, key, fetch.since, now);
  const state = cursors.sent(fetch.keyId, key, entries, now, from);
  const text = from
    ? mikrotikDelta(from.entries, entries, options, now, state.token)
    : mikrotik(entries, options, now, state.token);
  return { text, token: state.token };
}

const menu = (value: string) => (value.includes(':') ? 'ipv6' : 'ip');

/**
 * How a delta finds an entry: by list and address. RouterOS may show a single IPv6 address as its
 * `/128` prefix, so that form is matched too.
 */
function findEntry(list: string, value: string): string {
  const address = routerOsString(value);
  const single = value.includes(':') && !value.includes('/');
  return single
    ? `[ find where list="${list}" and (address="${address}" or address="${address}/128") ]`
    : `[ find where list="${list}" and address="${address}" ]`;
}

/** Removes one entry (nothing when the router already dropped it on its timeout). */
const removeLine = (list: string, value: string) =>
  `/${menu(value)}/firewall/address-list/remove ${findEntry(list, value)};\n`;

/** Adds one entry, or renews the one the router holds (a longer ban, a new scenario). */
function upsertLine(list: string, entry: BlocklistEntry, timeout: string): string {
  const path = `/${menu(entry.value)}/firewall/address-list`;
  const fields = `comment="${routerOsString(entry.scenario)}" timeout=${timeout}`;
  return (
    `:do { ${path}/add list=${list} address="${routerOsString(entry.value)}" ${fields}; } ` +
    `on-error={ ${path}/set ${findEntry(list, entry.value)} ${fields}; }\n`
  );
}

/**
 * A MikroTik delta: from what the router was sent (`before`) to what the key should hold now
 * (`after`), both sorted by value. A removal for each value gone (or under a second from its end),
 * an add-or-renew for each value new or changed (expiry, scenario), nothing for the rest: their
 * router timeouts are still counting down to the same end. Then the new cursor.
 */
export function mikrotikDelta(
  before: readonly BlocklistEntry[],
  after: readonly BlocklistEntry[],
  options: Pick<BlocklistOptions, 'listname'>,
  now: number,
  token: string,
): string {
  const list = options.listname;
  let out = '';
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const old = before[i];
    const next = after[j];
    if (next === undefined || (old !== undefined && old.value < next.value)) {
      out += removeLine(list, old!.value);
      i++;
      continue;
    }
    const same = old !== undefined && old.value === next.value;
    if (same) i++;
    j++;
    const timeout = routerTimeout(next, now);
    if (timeout === undefined) {
      if (same) out += removeLine(list, next.value);
    } else if (!same || old.expiresAt !== next.expiresAt || old.scenario !== next.scenario) {
      out += upsertLine(list, next, timeout);
    }
  }
  return out + cursorLine(list, token);
}
