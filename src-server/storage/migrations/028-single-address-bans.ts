import { parseCidr } from '../../net/cidr.ts';
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

/**
 * Bans stored after migration 26 through paths that bypassed the canonical form (an import of
 * `x/32`, intrusion bans with `ipv6Prefix` 128 stored as `x/128`): each becomes the address, so an
 * unban by address lifts it. Two bans in force of one category that now name the same address
 * become one: the longer-lasting stays, the others end (lifted, their history rows kept).
 */
export const singleAddressBansMigration: Migration = {
  version: 28,
  name: 'bans of one address stored as the address',
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
  },
};
