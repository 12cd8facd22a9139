import { parseCidr, type Cidr } from '../../net/cidr.ts';
import {
  cidrsOverlap,
  type DecisionKey,
  MANUAL_DURATION,
  MANUAL_DURATION_SECONDS,
  originOfKey,
  scopeOf,
  secondsLeft,
} from '../model/index.ts';
import { subtractCidrs } from '../../net/cidr-ranges.ts';
import type { Member } from '../snapshot/index.ts';
import { type Fail2banSettings, type NetworkFilter, trustedRanges, whitelistRanges } from '../filters/index.ts';
import type { ActiveBan } from '../bans/index.ts';

import { BLOCKLIST_FORMATS, type BlocklistFormat } from '../../../src-shared/formats.ts';

export { BLOCKLIST_FORMATS, type BlocklistFormat } from '../../../src-shared/formats.ts';

/** What a feed request asks for (cs-blocklist-mirror's query options). */
export interface BlocklistOptions {
  format: BlocklistFormat;
  ipv4only: boolean;
  ipv6only: boolean;
  /** Only decisions of this origin (case-insensitive), e.g. `pbx-fail2ban`. */
  origin?: string;
  /** The MikroTik address list's name. */
  listname: string;
}

/** One line of a feed: a published decision, one per value. */
export interface BlocklistEntry {
  value: string;
  scope: 'Ip' | 'Range';
  scenario: string;
  origin: string;
  /** When a ban ends (epoch ms); null for a filter entry, which never does. */
  expiresAt: number | null;
}

/** An entry's duration as the stream writes it at `now`: `<n>s` for bans, `596h` for filter entries. */
export const entryDuration = (entry: Pick<BlocklistEntry, 'expiresAt'>, now: number) =>
  entry.expiresAt === null ? MANUAL_DURATION : `${secondsLeft(entry.expiresAt, now)}s`;

/** The MikroTik list name cs-blocklist-mirror uses when none is given, so its scripts keep working. */
export const DEFAULT_LIST_NAME = 'CrowdSec';
/** A list name goes into a RouterOS script: only characters that cannot break out of it. */
const LIST_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

type Query = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Parses the feed's query: `{ok: false, message}` for a 400 (unknown format, both families, a bad list name). */
export function parseBlocklistQuery(
  query: Query,
): { ok: true; options: BlocklistOptions } | { ok: false; message: string } {
  const format = first(query.format) ?? 'plain_text';
  if (!(BLOCKLIST_FORMATS as readonly string[]).includes(format)) {
    return {
      ok: false,
      message: `Unknown format "${format.slice(0, 40)}": use one of ${BLOCKLIST_FORMATS.join(', ')}.`,
    };
  }
  // Flags by presence, as cs-blocklist-mirror reads them (`?ipv4only` alone is enough).
  const ipv4only = 'ipv4only' in query;
  const ipv6only = 'ipv6only' in query;
  if (ipv4only && ipv6only)
    return { ok: false, message: 'ipv4only and ipv6only exclude each other: give at most one.' };
  const origin = first(query.origin);
  if (origin !== undefined && (origin === '' || origin.length > 100))
    return { ok: false, message: 'origin: a decision origin such as pbx-fail2ban or pbx-networkfilters.' };
  const listname = first(query.listname) ?? DEFAULT_LIST_NAME;
  if (!LIST_NAME.test(listname)) return { ok: false, message: 'listname: 1 to 64 letters, digits, "_", "." or "-".' };
  return { ok: true, options: { format: format as BlocklistFormat, ipv4only, ipv6only, origin, listname } };
}

/** The whitelist as ranges: trusted filters' permit networks, the fail2ban whitelist and its entries in force at `now`. */
export function protectedCidrs(
  filters: readonly NetworkFilter[],
  settings: Pick<Fail2banSettings, 'whitelist' | 'whitelistEntries'>,
  now: number,
): Cidr[] {
  return [...trustedRanges(filters), ...whitelistRanges(settings, now)].map((range) => range.cidr);
}

/** Whether a value is IPv6 (cs-blocklist-mirror tests for ":"). */
const isIpv6 = (value: string) => value.includes(':');

/**
 * The feed's content: the stream's published decisions (filter entries and every ban in force), less the
 * whitelist (a range that holds a whitelisted address is split around it), one entry per value
 * (the longest duration wins), filtered by family and origin, sorted by value as
 * cs-blocklist-mirror sorts them. Durations are left to the renderer, so one list serves every
 * format until the decisions change.
 */
export function blocklistEntries(
  members: Iterable<Pick<Member, 'key' | 'filterRefs'> & { ban: Pick<ActiveBan, 'expiresAt'> | undefined }>,
  whitelist: readonly Cidr[],
  options: Pick<BlocklistOptions, 'ipv4only' | 'ipv6only' | 'origin'>,
  now: number,
): BlocklistEntry[] {
  const byValue = new Map<string, BlocklistEntry>();
  const wanted = (value: string, origin: string) =>
    !(options.ipv4only && isIpv6(value)) &&
    !(options.ipv6only && !isIpv6(value)) &&
    (options.origin === undefined || origin.toLowerCase() === options.origin.toLowerCase());
  const seconds = (entry: BlocklistEntry) =>
    entry.expiresAt === null ? MANUAL_DURATION_SECONDS : secondsLeft(entry.expiresAt, now);
  const keep = (piece: string, scenario: string, origin: string, expiresAt: number | null) => {
    const entry: BlocklistEntry = { value: piece, scope: scopeOf(piece), scenario, origin, expiresAt };
    const known = byValue.get(piece);
    if (!known || seconds(entry) > seconds(known)) byValue.set(piece, entry);
  };
  const add = (key: DecisionKey, expiresAt: number | null) => {
    const { value, scenario } = key;
    // An upstream decision keeps its own origin (`crowdsec`, `CAPI`...), as the stream publishes it.
    const origin = originOfKey(key);
    if (!wanted(value, origin)) return;
    if (whitelist.length === 0) return keep(value, scenario, origin, expiresAt);
    for (const piece of withoutWhitelist(value, whitelist)) keep(piece, scenario, origin, expiresAt);
  };
  for (const { key, filterRefs, ban } of members) {
    // As the stream publishes it: a filter entry's fixed duration, unless a ban of the same value lasts longer.
    const banLonger =
      ban !== undefined &&
      ban.expiresAt > now &&
      (filterRefs === 0 || secondsLeft(ban.expiresAt, now) > MANUAL_DURATION_SECONDS);
    if (banLonger) add(key, ban.expiresAt);
    else if (filterRefs > 0) add(key, null);
  }
  // The built-in sort compares strings natively: several times faster than a comparator at 100k.
  return [...byValue.keys()].sort().map((value) => byValue.get(value)!);
}

/** A value less the whitelist: itself when nothing overlaps, else what is left of it (maybe nothing). */
function withoutWhitelist(value: string, whitelist: readonly Cidr[]): string[] {
  const cidr = whitelist.length ? parseCidr(value) : undefined;
  if (!cidr || !whitelist.some((range) => cidrsOverlap(cidr, range))) return [value];
  return subtractCidrs(cidr, whitelist);
}
