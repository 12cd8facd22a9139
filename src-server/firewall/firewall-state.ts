import type { Cidr } from '../net/cidr.ts';
import { parseAddress } from '../net/cidr.ts';
import type { Db } from '../storage/database.ts';
import { isHostLoopback } from './addresses.ts';
import { FAIL2BAN_DEFAULTS, readFail2ban, whitelistRanges, type Fail2banSettings } from './fail2ban-settings.ts';
import { loadFilters, trustedRanges, type NetworkFilter } from './filters.ts';
import { composeWhitelist, inAnyRange } from './whitelist.ts';

/**
 * The web thread's copy of the operator's firewall configuration (filters and fail2ban rules),
 * reloaded when a worker reports a change. Everything derived from it is computed here once.
 */
export class FirewallState {
  filters: NetworkFilter[] = [];
  settings: Fail2banSettings = { ...FAIL2BAN_DEFAULTS };
  /** The whitelist answer, serialised once per change. */
  whitelistJson = '[]';
  /** Bumped on every reload, so caches built from the configuration know when to rebuild. */
  revision = 0;
  private protectedRanges: Array<{ cidr: Cidr }> = [];

  constructor(private readonly db: Db) {
    this.reload();
  }

  /** Reads filters and fail2ban settings again and recomputes what derives from them. */
  reload(): void {
    this.filters = loadFilters(this.db);
    this.settings = readFail2ban(this.db);
    this.protectedRanges = [...trustedRanges(this.filters), ...whitelistRanges(this.settings)];
    this.whitelistJson = JSON.stringify(composeWhitelist(this.filters, this.settings));
    this.revision++;
  }

  /** Loopback, whitelisted and trusted addresses are never banned. */
  isNeverBanned(ip: string): boolean {
    if (isHostLoopback(ip)) return true;
    const address = parseAddress(ip);
    return !address || inAnyRange(this.protectedRanges, address);
  }
}
