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
import { activeBansThatMayHold, PERMANENT_UNTIL } from './bans/index.ts';
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
}

/** The answer to "why is this address blocked?" (`firewall:lookup`). */
export interface AddressLookup {
  address: string;
  blocked: boolean;
  /** Why the address can never be blocked, when it is this host's own loopback. */
  loopback: string | null;
  decisions: CoveringDecision[];
  protections: Protection[];
}

export type LookupOutcome = { ok: true; lookup: AddressLookup } | { ok: false; message: string };

/**
 * Every active decision that covers one address (its own bans, range bans that hold it, filter
 * deny entries that hold it), with time left and the bouncers sent it; and every whitelist or
 * trusted entry that protects it. Runs in a worker. An address nothing covers gets empty lists.
 */
export function lookupAddress(db: Db, now: number, raw: string | undefined): LookupOutcome {
  if (raw === undefined || raw.trim() === '')
    return { ok: false, message: 'ip is required: the address to look up, e.g. ?ip=198.51.100.7.' };
  if (raw.length > 64) return { ok: false, message: 'ip is not an IPv4 or IPv6 address (over 64 characters).' };
  const address = normalizeAddress(raw.trim());
  if (!address || address.includes('/'))
    return { ok: false, message: `ip "${raw.slice(0, 64)}" is not an IPv4 or IPv6 address (no prefix, no zone).` };

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
  for (const { text } of whitelistRanges(readFail2ban(db), now))
    if (cidrContains(text, address)) protections.push({ kind: 'whitelist', value: text });
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
  return { ok: true, lookup: { address, blocked: decisions.length > 0, loopback, decisions, protections } };
}
