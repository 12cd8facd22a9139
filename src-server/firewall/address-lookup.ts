import { cidrContains, parseCidr } from '../net/cidr.ts';
import type { Db } from '../storage/database.ts';
import {
  type BanKind,
  type DecisionKey,
  isHostLoopback,
  MANUAL_SCENARIO,
  normalizeAddress,
  originOf,
  scopeOf,
} from './model/index.ts';
import { activeBansThatMayHold, endedBansThatMayHold, PERMANENT_UNTIL, type EndedBan } from './bans/index.ts';
import { type Delivery, deliveryLookup, scenarioOfBan } from './export/index.ts';
import {
  filterBanValues,
  loadFilters,
  protectionText,
  readFail2ban,
  RegisteredAddresses,
  whitelistRanges,
} from './filters/index.ts';

/** One active decision that covers the address asked about. */
export interface CoveringDecision {
  value: string;
  scenario: DecisionKey['scenario'];
  origin: string;
  scope: 'Ip' | 'Range';
  /** `upstream`: a CrowdSec LAPI's decision this PBX enforces (added by the resource, see upstream/upstream-bans.ts). */
  source: 'ban' | 'filter' | 'upstream';
  /** For a ban: its category, reason, who banned it and when. */
  ban?: { category: BanKind; reason: string; bannedBy: string; bannedAt: string };
  /** For a filter entry: the filter that denies it. */
  filter?: { id: number; description: string; permit: string };
  /** For an upstream decision: its origin and scenario; never liftable here (lift it on the LAPI, or whitelist). */
  upstream?: { origin: string; scenario: string; liftable: false };
  /** Whole seconds left; null when it never ends on its own (a filter entry, a permanent ban). */
  secondsLeft: number | null;
  delivery: Delivery;
}

/** Something that keeps the address from ever being banned. */
export interface Protection {
  kind: 'whitelist' | 'trusted-filter' | 'registered-phones';
  value: string;
  filter?: { id: number; description: string };
  /** For registered phones: the endpoints registered there (or within the linger). */
  phones?: string[];
  /** For registered phones: `protected: 2 registered phones, 101 and 103`. */
  note?: string;
  /** A whitelist entry's comment and end (ISO; null: for good); absent for the plain whitelist list. */
  comment?: string;
  until?: string | null;
}

/** One ended ban that held the address: who banned it when, and how it ended. */
export interface PastBan {
  value: string;
  category: BanKind;
  reason: string;
  bannedBy: string;
  bannedAt: string;
  endedAt: string;
  /** `lifted`: someone lifted it (liftedBy says who); `expired`: it ran out. */
  ended: 'lifted' | 'expired';
  liftedBy: string | null;
}

/** How many past bans the lookup shows, newest end first. */
export const LOOKUP_HISTORY_LIMIT = 10;

/** The answer to "why is this address blocked?" (`firewall:lookup`). */
export interface AddressLookup {
  address: string;
  blocked: boolean;
  /** Why the address can never be blocked, when it is this host's own loopback. */
  loopback: string | null;
  decisions: CoveringDecision[];
  protections: Protection[];
  /** Recent ended bans that held the address, newest end first (at most LOOKUP_HISTORY_LIMIT). */
  history: PastBan[];
}

export type LookupOutcome = { ok: true; lookup: AddressLookup } | { ok: false; message: string };

/**
 * Every active decision that covers one address (its own bans, range bans that hold it, filter
 * deny entries that hold it), with time left and the bouncers sent it; and every whitelist or
 * trusted entry that protects it. Runs in a worker. An address nothing covers gets empty lists.
 */
export function lookupAddress(db: Db, now: number, raw: string | undefined): LookupOutcome {
  if (raw === undefined || raw.trim() === '')
    return { ok: false, message: 'Type the address to look up, e.g. 198.51.100.7.' };
  if (raw.length > 64)
    return { ok: false, message: 'That is too long for an address: type one IPv4 or IPv6 address, e.g. 198.51.100.7.' };
  const address = normalizeAddress(raw.trim());
  if (!address || address.includes('/')) {
    if (!parseCidr(raw.trim())) return { ok: false, message: notAnAddress(raw.trim()) };
    return {
      ok: false,
      message: `${raw.trim()} is a range: type one address inside it (e.g. its first one) to see what blocks it.`,
    };
  }

  const delivered = deliveryLookup(db, now);
  const decisions: CoveringDecision[] = [];
  const bans = activeBansThatMayHold(db, address, now);
  for (const row of bans) {
    if (row.ip !== address && !cidrContains(row.ip, address)) continue;
    const scenario = scenarioOfBan(row.category);
    decisions.push({
      value: row.ip,
      scenario,
      origin: originOf(scenario),
      scope: scopeOf(row.ip) as 'Ip' | 'Range',
      source: 'ban',
      ban: {
        category: row.category,
        reason: row.reason,
        bannedBy: row.banned_by,
        bannedAt: new Date(row.banned_at).toISOString(),
      },
      secondsLeft: row.expires_at >= PERMANENT_UNTIL ? null : Math.max(1, Math.ceil((row.expires_at - now) / 1000)),
      delivery: delivered(row.ip, scenario),
    });
  }
  const filters = loadFilters(db);
  for (const filter of filters) {
    for (const value of filterBanValues(filter)) {
      if (value !== address && !cidrContains(value, address)) continue;
      decisions.push({
        value,
        scenario: MANUAL_SCENARIO,
        origin: originOf(MANUAL_SCENARIO),
        scope: scopeOf(value) as 'Ip' | 'Range',
        source: 'filter',
        filter: { id: filter.id, description: filter.description, permit: filter.permit },
        secondsLeft: null,
        delivery: delivered(value, MANUAL_SCENARIO),
      });
    }
  }

  const protections: Protection[] = [];
  for (const filter of filters) {
    if (filter.newer_block_ip && parseCidr(filter.permit) && cidrContains(filter.permit, address)) {
      protections.push({
        kind: 'trusted-filter',
        value: filter.permit,
        filter: { id: filter.id, description: filter.description },
      });
    }
  }
  const fail2ban = readFail2ban(db);
  for (const { text } of whitelistRanges(fail2ban, now)) {
    if (!cidrContains(text, address)) continue;
    const entry = fail2ban.whitelistEntries.find((e) => e.value === text);
    protections.push(
      entry
        ? { kind: 'whitelist', value: text, comment: entry.comment, until: entry.until }
        : { kind: 'whitelist', value: text },
    );
  }
  const phones = RegisteredAddresses.read(db, now).phonesAt(address);
  if (phones.length)
    protections.push({
      kind: 'registered-phones',
      value: address,
      phones,
      note: `protected: ${protectionText(phones)}`,
    });

  const loopback = isHostLoopback(address)
    ? `${address} is this host's own loopback address: it is never banned and never published to ` +
      `bouncers, so the PBX cannot lock itself out.`
    : null;
  const history = pastBans(db, address, now);
  return { ok: true, lookup: { address, blocked: decisions.length > 0, loopback, decisions, protections, history } };
}

/** "hello" is not an address, in words a technician reads (never the parser's terms). */
function notAnAddress(typed: string): string {
  const shown = typed.length > 40 ? `${typed.slice(0, 40)}…` : typed;
  return `"${shown}" is not an address: type one IPv4 or IPv6 address, e.g. 198.51.100.7 or 2001:db8::7.`;
}

/** The recent ended bans that held `address` (its own and the ranges around it). */
function pastBans(db: Db, address: string, now: number): PastBan[] {
  // Its own bans, then the ranges that may hold it (a margin of them: some do not), newest end first.
  const rows = endedBansThatMayHold(db, address, now, 500);
  const held = rows.filter((row) => row.ip === address || cidrContains(row.ip, address));
  const end = (row: EndedBan) => row.lifted_at ?? row.expires_at;
  held.sort((a, b) => end(b) - end(a));
  return held.slice(0, LOOKUP_HISTORY_LIMIT).map(pastBan);
}

function pastBan(row: EndedBan): PastBan {
  const lifted = row.lifted_at !== null && row.lifted_at < row.expires_at;
  return {
    value: row.ip,
    category: row.category,
    reason: row.reason,
    bannedBy: row.banned_by,
    bannedAt: new Date(row.banned_at).toISOString(),
    endedAt: new Date(lifted ? (row.lifted_at as number) : row.expires_at).toISOString(),
    ended: lifted ? 'lifted' : 'expired',
    liftedBy: lifted ? (row.lifted_by ?? '') : null,
  };
}
