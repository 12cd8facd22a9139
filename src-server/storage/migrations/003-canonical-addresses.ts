import { cidrText, parseAddress, parseCidr } from '../../net/cidr.ts';
import { rewriteFilterAddresses, type Migration } from './migration.ts';

/** One stored entry in canonical text; anything that does not parse is left as it was. */
function canonicalEntry(entry: string): string {
  if (entry.includes('/')) {
    const cidr = parseCidr(entry);
    return cidr ? cidrText(cidr) : entry;
  }
  return parseAddress(entry)?.toString() ?? entry;
}

/** A stored list (commas and/or whitespace) with each entry canonical and the separators kept. */
const canonicalList = (value: string) => value.replace(/[^\s,]+/g, canonicalEntry);

/**
 * Addresses written before every writer canonicalised them: IPv4-mapped IPv6 (`::ffff:c000:2c8`,
 * `::ffff:192.0.2.0/120`) becomes IPv4 (`192.0.2.200`, `192.0.2.0/24`) and IPv6 is compressed, in
 * network filters (permit, deny) and the fail2ban whitelist.
 */
export const canonicalAddressesMigration: Migration = {
  version: 3,
  name: 'canonical addresses in filters and the fail2ban whitelist',
  up(db) {
    rewriteFilterAddresses(db, canonicalEntry, canonicalEntry);
    const row = db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as { value: string } | undefined;
    if (!row) return;
    const settings = JSON.parse(row.value) as Record<string, unknown>;
    if (typeof settings.whitelist !== 'string') return;
    const whitelist = canonicalList(settings.whitelist);
    if (whitelist !== settings.whitelist) {
      db.prepare("UPDATE settings SET value = ? WHERE key = 'fail2ban'").run(
        JSON.stringify({ ...settings, whitelist }),
      );
    }
  },
};
