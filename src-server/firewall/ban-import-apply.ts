import { parseCidr } from '../net/cidr.ts';
import { cidrBounds } from '../net/cidr-ranges.ts';
import type { Db } from '../storage/database.ts';
import { PERMANENT_UNTIL } from './ban-queries.ts';
import { isCanonicalIpv4, type ImportedBan, type LineError } from './ban-import.ts';
import { readFail2ban, whitelistRanges } from './fail2ban-settings.ts';
import { trustedRanges } from './filters.ts';
import { loadFilters } from './filter-store.ts';

/** What an import does to one address or range. */
export type ImportAction = 'add' | 'extend' | 'keep';

export interface PlannedBan extends ImportedBan {
  action: ImportAction;
  /** Every line that named this value (duplicates are merged into one ban). */
  lines: number[];
}

export interface ImportPlan {
  bans: PlannedBan[];
  added: number;
  extended: number;
  unchanged: number;
  /** Entries merged into another of the same value. */
  merged: number;
}

export const until = (ban: Pick<ImportedBan, 'seconds'>, now: number) =>
  ban.seconds === null ? PERMANENT_UNTIL : now + ban.seconds * 1000;

/** Duplicates merged: one ban per value, the longest duration (its reason and services with it). */
function mergeDuplicates(bans: readonly ImportedBan[]): { unique: Map<string, PlannedBan>; merged: number } {
  const unique = new Map<string, PlannedBan>();
  for (const ban of bans) {
    const known = unique.get(ban.value);
    if (!known) {
      // Spelled out: a spread with added members made each of 100,000 objects 410 bytes, not 140.
      const { line, value, seconds, reason, services } = ban;
      unique.set(value, { line, value, seconds, reason, services, action: 'add', lines: [line] });
      continue;
    }
    if (known.lines[known.lines.length - 1] !== ban.line) known.lines.push(ban.line);
    if (until(ban, 0) > until(known, 0))
      Object.assign(known, { seconds: ban.seconds, reason: ban.reason, services: ban.services });
  }
  return { unique, merged: bans.length - unique.size };
}

/** A range as integer bounds, so 100,000 values are checked without the general address parser. */
interface Bounds {
  family: 'ipv4' | 'ipv6';
  first: bigint;
  last: bigint;
}

function boundsOf(value: string): Bounds {
  if (isCanonicalIpv4(value)) {
    const [a, b, c, d] = value.split('.').map(Number) as [number, number, number, number];
    const n = BigInt(((a * 256 + b) * 256 + c) * 256 + d);
    return { family: 'ipv4', first: n, last: n };
  }
  return cidrBounds(parseCidr(value)!);
}

const overlaps = (a: Bounds, b: Bounds) => a.family === b.family && a.first <= b.last && b.first <= a.last;

/** The ranges an import may not touch, each with the reason it gives. */
function protectedRanges(db: Db, now: number): Array<Bounds & { reason: string }> {
  const out: Array<Bounds & { reason: string }> = [
    { ...boundsOf('127.0.0.1'), reason: "covers this PBX's own loopback address" },
    { ...boundsOf('::1'), reason: "covers this PBX's own loopback address" },
  ];
  for (const { text, cidr } of whitelistRanges(readFail2ban(db), now))
    out.push({ ...cidrBounds(cidr), reason: `overlaps the whitelisted ${text}` });
  for (const { text, cidr } of trustedRanges(loadFilters(db)))
    out.push({ ...cidrBounds(cidr), reason: `overlaps the trusted network ${text}` });
  return out;
}

/** Why a value may not be banned (everything, loopback, whitelisted, trusted), or undefined. */
function refusal(value: string, ranges: ReadonlyArray<Bounds & { reason: string }>): string | undefined {
  if (value.endsWith('/0')) return 'is every address; ban specific addresses or networks';
  const bounds = boundsOf(value);
  return ranges.find((range) => overlaps(bounds, range))?.reason;
}

/**
 * What importing these bans would do, without writing: duplicates merged; whitelisted, trusted and
 * loopback values refused (with their lines); each value compared with the manual ban already in
 * force for it (a longer import extends it, a shorter one keeps it).
 */
export function planBanImport(
  db: Db,
  bans: readonly ImportedBan[],
  now: number,
): { plan: ImportPlan; errors: LineError[] } {
  const { unique, merged } = mergeDuplicates(bans);
  const ranges = protectedRanges(db, now);
  const errors: LineError[] = [];
  const existing = new Map<string, number>();
  const rows = db
    .prepare(
      "SELECT ip, MAX(expires_at) AS expires_at FROM firewall_bans WHERE category = 'manual' AND " +
        'lifted_at IS NULL AND expires_at > ? GROUP BY ip',
    )
    .all(now) as Array<{
    ip: string;
    expires_at: number;
  }>;
  for (const row of rows) existing.set(row.ip, row.expires_at);
  const plan: ImportPlan = { bans: [], added: 0, extended: 0, unchanged: 0, merged };
  for (const ban of unique.values()) {
    const reason = refusal(ban.value, ranges);
    if (reason) {
      for (const line of ban.lines) errors.push({ line, reason: `${ban.value} ${reason}: refused` });
      continue;
    }
    const current = existing.get(ban.value);
    ban.action = current === undefined ? 'add' : current >= until(ban, now) ? 'keep' : 'extend';
    if (ban.action === 'add') plan.added++;
    else if (ban.action === 'extend') plan.extended++;
    else plan.unchanged++;
    plan.bans.push(ban);
  }
  errors.sort((a, b) => a.line - b.line);
  return { plan, errors };
}
