import ipaddr from 'ipaddr.js';
import { parseCidr, type Cidr } from '../../net/cidr.ts';
import { cidrBounds, subtractCidrs } from '../../net/cidr-ranges.ts';
import type { Db } from '../database.ts';
import type { Migration } from './migration.ts';

interface BanRow {
  id: number;
  category: string;
  ip: string;
  expires_at: number;
  lifted_at: number | null;
}

/** A ban of one address written as a range (`192.0.2.7/32`, `2001:db8::7/128`) is that address. */
function singleAddressValue(value: string): string {
  if (!value.includes('/')) return value;
  const cidr = parseCidr(value);
  return cidr && cidr[1] === (cidr[0].kind() === 'ipv4' ? 32 : 128) ? cidr[0].toString() : value;
}

/** What was never to be banned when this step was written (firewall/filters/never-banned.ts then): loopback, unspecified. */
const FIXED_HOLES: Array<{ text: string; cidr: Cidr }> = [
  ...['127.0.0.1', '::1', '0.0.0.0/8', '::'].map((text) => ({ text, cidr: parseCidr(text)! })),
  { text: '::ffff:0:0/96', cidr: ipaddr.IPv6.parseCIDR('::ffff:0:0/96') as Cidr },
];

/** The whitelist (plain and entries in force) and trusted networks stored now. */
function configuredHoles(db: Db, now: number): Array<{ text: string; cidr: Cidr }> {
  const texts: string[] = [];
  const row = db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as { value: string } | undefined;
  try {
    const settings = row ? (JSON.parse(row.value) as Record<string, unknown>) : {};
    if (typeof settings.whitelist === 'string') texts.push(...settings.whitelist.split(/[\s,]+/));
    for (const entry of Array.isArray(settings.whitelistEntries) ? settings.whitelistEntries : []) {
      const { value, until } = (entry ?? {}) as { value?: unknown; until?: unknown };
      if (typeof value === 'string' && (typeof until !== 'string' || Date.parse(until) > now)) texts.push(value);
    }
  } catch {
    // Unreadable settings protect nothing more than loopback and unspecified.
  }
  const trusted = db.prepare('SELECT permit FROM network_filters WHERE newer_block_ip = 1').all() as Array<{
    permit: string;
  }>;
  texts.push(...trusted.map((f) => f.permit));
  return texts.flatMap((text) => {
    const cidr = text ? parseCidr(text) : undefined;
    return cidr ? [{ text, cidr }] : [];
  });
}

const overlap = (a: Cidr, b: Cidr) => {
  const [x, y] = [cidrBounds(a), cidrBounds(b)];
  return x.family === y.family && x.first <= y.last && y.first <= x.last;
};

/**
 * Bans in force that hold a never-banned address (stored before every path followed the rule): a
 * ban inside a never-banned range is lifted, a wider one carved into the CIDRs around it, as a
 * whitelist save does (firewall/bans/covered-bans.ts).
 */
function carveNeverBanned(db: Db, now: number): void {
  const holes = [...FIXED_HOLES, ...configuredHoles(db, now)];
  const rows = db
    .prepare('SELECT id, ip FROM firewall_bans WHERE lifted_at IS NULL AND expires_at > ?')
    .all(now) as Array<{ id: number; ip: string }>;
  const lift = db.prepare('UPDATE firewall_bans SET lifted_at = ?, lifted_by = ? WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, services, banned_by) ' +
      'SELECT category, ?, substr(reason || ?, 1, 200), banned_at, expires_at, services, banned_by ' +
      'FROM firewall_bans WHERE id = ?',
  );
  for (const row of rows) {
    const cidr = parseCidr(row.ip);
    if (!cidr) continue;
    const inside = holes.filter((hole) => overlap(cidr, hole.cidr));
    if (inside.length === 0) continue;
    const note = `carved around ${inside.map((h) => h.text).join(', ')} (never banned)`;
    lift.run(now, `migration 28 (${note})`, row.id);
    for (const piece of subtractCidrs(
      cidr,
      inside.map((h) => h.cidr),
    ))
      insert.run(piece, ` (${note})`, row.id);
  }
}

/**
 * Bans stored after migration 26 through paths that bypassed the canonical form (an import of
 * `x/32`, intrusion bans with `ipv6Prefix` 128 stored as `x/128`): each becomes the address, so an
 * unban by address lifts it. Two bans in force of one category that now name the same address
 * become one: the longer-lasting stays, the others end (lifted, their history rows kept). Then a
 * ban in force that holds a never-banned address is lifted or carved around it (carveNeverBanned).
 */
export const singleAddressBansMigration: Migration = {
  version: 28,
  name: 'bans of one address stored as the address; no ban in force holds a never-banned address',
  up(db) {
    const now = Date.now();
    const rows = db
      .prepare(
        "SELECT id, category, ip, expires_at, lifted_at FROM firewall_bans WHERE ip LIKE '%/32' OR " +
          "ip LIKE '%/128' OR (lifted_at IS NULL AND expires_at > ?) ORDER BY expires_at DESC, id DESC",
      )
      .all(now) as BanRow[];
    const setIp = db.prepare('UPDATE firewall_bans SET ip = ? WHERE id = ?');
    const end = db.prepare(
      "UPDATE firewall_bans SET lifted_at = ?, lifted_by = 'same address (migration 28)' WHERE id = ?",
    );
    // Longest first: the first ban in force to claim (category, address) keeps it.
    const claimed = new Set<string>();
    for (const row of rows) {
      const value = singleAddressValue(row.ip);
      if (value !== row.ip) setIp.run(value, row.id);
      if (row.lifted_at !== null || row.expires_at <= now) continue;
      const key = `${row.category} ${value}`;
      if (claimed.has(key)) end.run(now, row.id);
      else claimed.add(key);
    }
    carveNeverBanned(db, now);
  },
};
