import type { Cidr } from '../../net/cidr.ts';
import type { Fail2banSettings } from './fail2ban-fields.ts';
import { whitelistRanges } from './fail2ban-settings.ts';
import { trustedRanges, type NetworkFilter } from './filters.ts';

const rangeKey = (cidr: Cidr) => `${cidr[0].toString()}/${cidr[1]}`;

/**
 * The bouncer whitelist: permit values of trusted filters (id order), then the fail2ban whitelist
 * (as written), then the whitelist entries in force at `now`. An entry equal to an earlier one (`10.0.0.1` and
 * `10.0.0.1/32` too) is dropped.
 */
export function composeWhitelist(
  filters: readonly NetworkFilter[],
  settings: Pick<Fail2banSettings, 'whitelist' | 'whitelistEntries'>,
  now: number,
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const { text, cidr } of [...trustedRanges(filters), ...whitelistRanges(settings, now)]) {
    const key = rangeKey(cidr);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}
