import { systemClock, type Clock } from '../../clock.ts';
import { parseAddress } from '../../net/cidr.ts';
import type { Db } from '../../storage/database.ts';
import type { Fail2banSettings } from './fail2ban-fields.ts';
import { FAIL2BAN_DEFAULTS, nextWhitelistEnd, readFail2ban } from './fail2ban-settings.ts';
import type { NetworkFilter } from './filters.ts';
import { loadFilters } from './filter-store.ts';
import { configuredNeverBanned, NeverBannedSet } from './never-banned.ts';
import { composeWhitelist } from './whitelist.ts';

/**
 * The web thread's copy of the operator's firewall configuration (filters and fail2ban rules),
 * reloaded when a worker reports a change, and again when a whitelist entry reaches its end.
 * Everything derived from it is computed here once.
 */
export class FirewallState {
  filters: NetworkFilter[] = [];
  private current: Fail2banSettings = { ...FAIL2BAN_DEFAULTS };
  private whitelistText = '[]';
  /** Bumped on every reload, so caches built from the configuration know when to rebuild. */
  revision = 0;
  private neverBannedSet = new NeverBannedSet([]);
  /** When the first whitelist entry in force ends (epoch ms): the derived state is recomputed then. */
  private nextEnd = Infinity;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock = systemClock,
  ) {
    this.reload();
  }

  /** Reads filters and fail2ban settings again and recomputes what derives from them. */
  reload(): void {
    const now = this.clock.now();
    this.filters = loadFilters(this.db);
    this.current = readFail2ban(this.db);
    this.neverBannedSet = new NeverBannedSet(configuredNeverBanned(this.filters, this.current, now));
    this.whitelistText = JSON.stringify(composeWhitelist(this.filters, this.current, now));
    this.nextEnd = nextWhitelistEnd(this.current, now);
    this.revision++;
  }

  /** Recomputes once a whitelist entry has reached its end: it leaves /v1/whitelist, and its failures count again. */
  private fresh(): void {
    if (this.clock.now() >= this.nextEnd) this.reload();
  }

  /** The fail2ban rules in force. */
  get settings(): Fail2banSettings {
    return this.current;
  }

  /** The whitelist answer, serialised once per change. */
  get whitelistJson(): string {
    this.fresh();
    return this.whitelistText;
  }

  /** The never-banned rule in force (loopback, unspecified, whitelist, trusted networks): see never-banned.ts. */
  get neverBanned(): NeverBannedSet {
    this.fresh();
    return this.neverBannedSet;
  }

  /** Loopback, unspecified, whitelisted and trusted addresses are never banned (garbage neither). */
  isNeverBanned(ip: string): boolean {
    const address = parseAddress(ip);
    return !address || this.neverBanned.holderOf(address.toString()) !== undefined;
  }
}
