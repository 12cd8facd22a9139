import type { Clock } from '../../clock.ts';
import { BAN_CATEGORIES, type BanCategory, normalizeAddress } from '../model/index.ts';
import { incrementedBantime, ipv6PrefixOf, ruleFor, slowRuleFor } from './ban-policy.ts';
import type { BanStore } from '../bans/index.ts';
import { describeHoles, protectionText, type FirewallState, type RegisteredAddresses } from '../filters/index.ts';
import type { NeighbourhoodEscalation } from './neighbourhood-escalation.ts';
import type { AccountFlags } from './account-flags.ts';

/** Registered phones are never cut off: the addresses that host them, and the flags raised instead of bans. */
export interface PhoneGuard {
  registered: RegisteredAddresses;
  flags: AccountFlags;
}

/** The start of the reason of a ban earned only with wrong API keys (see recordFailure). */
export const WRONG_KEY_REASON = 'wrong API key';

/** Above this many tracked (category, source) pairs, stale ones are swept before adding more. */
const SWEEP_ABOVE = 10_000;

/** One counted failure: when, from which address (a prefix counts several), and whether it was a wrong API key. */
interface Failure {
  at: number;
  ip: string;
  apiKey: boolean;
}

/**
 * fail2ban's rule on the web thread: `maxretry` failures of one source in one category within
 * `findtime` seconds ban that source in that category for `bantime` seconds, each number taken
 * from the category's own rule or the global one. A source is an address, or with `ipv6ByPrefix`
 * the IPv6 prefix an address belongs to. Repeat offenders are banned longer (`bantimeIncrement`,
 * the ban history being the memory). With the slow window on, a second rule per category
 * (`slowMaxretry` within `slowFindtime`, banned `slowBantime`) is counted over the same failures,
 * so a slow brute force that stays under the first rule is banned too; when both trip, the first
 * rule's ban is given. Loopback, whitelisted and trusted addresses are never counted.
 */
export class IntrusionDetector {
  /** Failures per `category|source`, oldest first. */
  private readonly failures = new Map<string, Failure[]>();
  /** The longest findtime of any category, per configuration revision (sweeps run often under load). */
  private longestWindow = { revision: -1, seconds: 0 };

  constructor(
    private readonly state: FirewallState,
    private readonly bans: BanStore,
    private readonly clock: Clock,
    /** rndtime's randomness (tests pass a fixed one). */
    private readonly random: () => number = Math.random,
    private readonly phones?: PhoneGuard,
    /** Turns enough single bans of one neighbourhood into a Range ban (when the settings say so). */
    private readonly escalation?: NeighbourhoodEscalation,
  ) {}

  /**
   * Records one failure; returns true when it caused a ban. A ban earned only with wrong API keys
   * says so in its reason (WRONG_KEY_REASON): only such a ban is lifted when the address then
   * presents a valid key, never one earned by guessing passwords.
   */
  recordFailure(category: BanCategory, rawIp: string, reason: string, apiKey = false, account?: string): boolean {
    // Asterisk's addresses arrive canonical: a registered one is known in one map lookup (bench/protected-check.ts).
    if (this.heldForPhones(category, rawIp, account)) return false;
    const ip = normalizeAddress(rawIp);
    if (!ip || this.state.isNeverBanned(ip)) return false;
    if (ip !== rawIp && this.heldForPhones(category, ip, account)) return false;
    const settings = this.state.settings;
    const prefix = settings.ipv6ByPrefix ? ipv6PrefixOf(ip, settings.ipv6Prefix) : undefined;
    if (this.bans.get(category, ip) || (prefix && this.bans.get(category, prefix))) return false;
    if (this.escalation?.coveringBan(category, ip)) return false;
    const rule = ruleFor(settings, category);
    const slow = slowRuleFor(settings, category);
    const now = this.clock.now();
    const key = `${category}|${prefix ?? ip}`;
    if (!this.failures.has(key) && this.failures.size >= SWEEP_ABOVE) this.sweep(now);
    // One list serves both rules: it keeps the failures of the longer window.
    const kept = now - Math.max(rule.findtime, slow?.findtime ?? 0) * 1000;
    const recent = (this.failures.get(key) ?? []).filter((f) => f.at > kept);
    recent.push({ at: now, ip, apiKey });
    this.failures.set(key, recent);
    const fast = recent.filter((f) => f.at > now - rule.findtime * 1000);
    let counted: Failure[];
    let bantime: number;
    let why = reason;
    if (fast.length >= rule.maxretry) [counted, bantime] = [fast, rule.bantime];
    else if (slow && recent.length >= slow.maxretry) {
      [counted, bantime] = [recent, slow.bantime];
      why = `${reason}; slow window: ${recent.length} failures within ${slow.findtime} s`;
    } else return false;
    if (counted.every((f) => f.apiKey)) why = `${WRONG_KEY_REASON}: ${why}`;
    // Forgotten only once the ban is stored: a failed write (database locked) bans at the next failure.
    if (!prefix) this.banSource(category, ip, why, bantime);
    else this.banPrefix(category, prefix, counted, why, bantime);
    this.failures.delete(key);
    return true;
  }

  /**
   * An address with registered phones is never banned: the failing account is counted (and flagged
   * at maxretry) instead, unless the address is never banned anyway (whitelisted: never counted).
   */
  private heldForPhones(category: BanCategory, ip: string, account: string | undefined): boolean {
    if (!this.phones?.registered.isProtected(ip)) return false;
    if (!this.state.neverBanned.holderOf(ip)) this.phones.flags.recordFailure(category, ip, account);
    return true;
  }

  /**
   * Bans an IPv6 prefix as one Range, unless it holds a never-banned address (loopback,
   * unspecified, whitelisted or trusted): then the failing addresses are banned one by one, and
   * the reason says why (carving a /64 around `::1` would take about 64 bans for addresses that
   * never failed).
   */
  private banPrefix(
    category: BanCategory,
    prefix: string,
    recent: readonly Failure[],
    reason: string,
    bantime: number,
  ): void {
    const addresses = [...new Set(recent.map((f) => f.ip))];
    const screen = this.state.neverBanned.screen(prefix);
    const phones = this.phones?.registered.protectedPhones(prefix) ?? new Map<string, string[]>();
    if (phones.size > 0) {
      const held = [...phones].map(([address, list]) => `${address} (${protectionText(list)})`).join(', ');
      for (const address of addresses)
        this.banSource(category, address, `${reason}; not banned as ${prefix}, which holds ${held}`, bantime);
      return;
    }
    if (screen.kind === 'clear') {
      this.banSource(
        category,
        prefix,
        `${reason} (${recent.length} failures from ${addresses.length} address(es) of ${prefix})`,
        bantime,
      );
      return;
    }
    const holes = screen.kind === 'carved' ? screen.holes : [screen.holder];
    const note = `; not banned as ${prefix}, which holds ${describeHoles(holes)}`;
    for (const address of addresses) this.banSource(category, address, `${reason}${note}`, bantime);
  }

  /** Bans a source for the tripped rule's bantime, longer for a repeat offender when increment is on. */
  private banSource(category: BanCategory, source: string, reason: string, bantime: number): void {
    const settings = this.state.settings;
    const earlier = this.bans.earlierBans(source, settings.bantimeOveralljails ? null : category);
    const seconds = incrementedBantime(settings, bantime, earlier, this.random);
    const ban = this.bans.ban(category, source, reason, seconds, earlier + 1);
    if (!source.includes('/')) this.escalation?.consider(ban);
  }

  /** Forgets the failures counted against an address or prefix (after an operator unban). */
  forgetIp(ip: string): void {
    for (const key of this.failures.keys()) if (key.endsWith(`|${ip}`)) this.failures.delete(key);
  }

  /** Number of (category, source) pairs with failures on record. */
  get tracked(): number {
    return this.failures.size;
  }

  /** Drops sources whose last failure is older than the longest window of any category. */
  private sweep(now: number): void {
    if (this.longestWindow.revision !== this.state.revision) {
      const settings = this.state.settings;
      this.longestWindow = {
        revision: this.state.revision,
        seconds: Math.max(
          ...BAN_CATEGORIES.map((c) =>
            Math.max(ruleFor(settings, c).findtime, slowRuleFor(settings, c)?.findtime ?? 0),
          ),
        ),
      };
    }
    const since = now - this.longestWindow.seconds * 1000;
    for (const [key, list] of this.failures) if (list[list.length - 1]!.at <= since) this.failures.delete(key);
  }
}
