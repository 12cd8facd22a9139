import { networkText, parseCidr } from '../../net/cidr.ts';
import { rewriteFilterAddresses, type Migration } from './migration.ts';

/** Largest id an import may write (2^31 - 1): a sequence past it was pushed there by an unbounded import. */
const MAX_ID = 2 ** 31 - 1;

/** A stored range as its network (`203.0.113.77/24` -> `203.0.113.0/24`); addresses and garbage stay as written. */
function canonicalRange(entry: string): string {
  if (!entry.includes('/')) return entry;
  const cidr = parseCidr(entry);
  return cidr ? networkText(cidr) : entry;
}

/** A value to block or trust: a range as its network, a range of one address as that address (`192.0.2.7/32` -> `192.0.2.7`). */
function canonicalValue(entry: string): string {
  const range = canonicalRange(entry);
  const cidr = range.includes('/') ? parseCidr(range) : undefined;
  return cidr && cidr[1] === (cidr[0].kind() === 'ipv4' ? 32 : 128) ? cidr[0].toString() : range;
}

/** A stored list (commas and/or whitespace) with each value canonical and the separators kept. */
const canonicalList = (value: string) => value.replace(/[^\s,]+/g, canonicalValue);

interface BanRow {
  id: number;
  category: string;
  ip: string;
  expires_at: number;
  lifted_at: number | null;
}

/**
 * Ranges written before every writer stored them as their network: manual bans (history
 * included), filter permits and deny entries, and the fail2ban whitelist; a banned, denied or
 * whitelisted range of one address (`/32`, `/128`) becomes that address. Two manual bans in force
 * that now name the same range become one: the one that lasts longer stays, the other is lifted
 * (as a new ban of the same value would have replaced it). Also repairs a filter id sequence an
 * unbounded backup import pushed past 2^31 - 1.
 */
export const canonicalRangesMigration: Migration = {
  version: 26,
  name: 'ranges stored as their network; filter id sequence bounded',
  up(db) {
    const now = Date.now();
    const bans = db
      .prepare(
        "SELECT id, category, ip, expires_at, lifted_at FROM firewall_bans WHERE ip LIKE '%/%' OR " +
          "(category = 'manual' AND lifted_at IS NULL AND expires_at > ?) ORDER BY expires_at DESC, " +
          'id DESC',
      )
      .all(now) as BanRow[];
    const setIp = db.prepare('UPDATE firewall_bans SET ip = ? WHERE id = ?');
    const lift = db.prepare(
      "UPDATE firewall_bans SET lifted_at = ?, lifted_by = 'canonical form (migration)' WHERE id = ?",
    );
    // Longest first: the first ban in force to claim a range keeps it, the others are lifted.
    const claimed = new Set<string>();
    for (const ban of bans) {
      const canonical = canonicalValue(ban.ip);
      if (canonical !== ban.ip) setIp.run(canonical, ban.id);
      if (ban.category !== 'manual' || ban.lifted_at !== null || ban.expires_at <= now) continue;
      if (claimed.has(canonical)) lift.run(now, ban.id);
      else claimed.add(canonical);
    }

    rewriteFilterAddresses(db, canonicalRange, canonicalValue);

    const row = db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as { value: string } | undefined;
    const settings = row ? (JSON.parse(row.value) as Record<string, unknown>) : undefined;
    if (settings && typeof settings.whitelist === 'string') {
      const whitelist = canonicalList(settings.whitelist);
      if (whitelist !== settings.whitelist)
        db.prepare("UPDATE settings SET value = ? WHERE key = 'fail2ban'").run(
          JSON.stringify({ ...settings, whitelist }),
        );
    }

    db.prepare(
      `UPDATE sqlite_sequence SET seq = (SELECT COALESCE(MAX(id), 0) FROM network_filters WHERE ` +
        `id <= ${MAX_ID}) WHERE name = 'network_filters' AND seq > ${MAX_ID}`,
    ).run();
  },
};
