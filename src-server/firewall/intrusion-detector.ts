import type { Clock } from '../clock.ts';
import { normalizeAddress } from './addresses.ts';
import type { BanStore } from './ban-store.ts';
import type { BanCategory } from './decisions.ts';
import type { FirewallState } from './firewall-state.ts';

/** The start of the reason of a ban earned only with wrong API keys (see recordFailure). */
export const WRONG_KEY_REASON = 'wrong API key';

/** Above this many tracked (category, ip) pairs, stale ones are swept before adding more. */
const SWEEP_ABOVE = 10_000;

/**
 * fail2ban's rule on the web thread: `maxretry` failures of one IP in one category within
 * `findtime` seconds ban that IP in that category for `bantime` seconds. Loopback, whitelisted
 * and trusted addresses are never counted.
 */
export class IntrusionDetector {
  /** Failures per `category|ip`, oldest first: when, and whether it was a wrong API key. */
  private readonly failures = new Map<string, Array<{ at: number; apiKey: boolean }>>();

  constructor(
    private readonly state: FirewallState,
    private readonly bans: BanStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Records one failure; returns true when it caused a ban. A ban earned only with wrong API keys
   * says so in its reason (WRONG_KEY_REASON): only such a ban is lifted when the address then
   * presents a valid key, never one earned by guessing passwords.
   */
  recordFailure(category: BanCategory, rawIp: string, reason: string, apiKey = false): boolean {
    const ip = normalizeAddress(rawIp);
    if (!ip || this.state.isNeverBanned(ip)) return false;
    if (this.bans.get(category, ip)) return false;
    const { maxretry, findtime, bantime } = this.state.settings;
    const now = this.clock.now();
    const since = now - findtime * 1000;
    const key = `${category}|${ip}`;
    if (!this.failures.has(key) && this.failures.size >= SWEEP_ABOVE) this.sweep(since);
    const times = (this.failures.get(key) ?? []).filter((t) => t.at > since);
    times.push({ at: now, apiKey });
    this.failures.set(key, times);
    if (times.length < maxretry) return false;
    const keysOnly = times.every((t) => t.apiKey);
    // Forgotten only once the ban is stored: a failed write (database locked) bans at the next failure.
    this.bans.ban(category, ip, keysOnly ? `${WRONG_KEY_REASON}: ${reason}` : reason, bantime);
    this.failures.delete(key);
    return true;
  }

  /** Forgets the failures counted against an address (after an operator unban). */
  forgetIp(ip: string): void {
    for (const key of this.failures.keys()) if (key.endsWith(`|${ip}`)) this.failures.delete(key);
  }

  /** Number of (category, ip) pairs with failures on record. */
  get tracked(): number {
    return this.failures.size;
  }

  private sweep(since: number): void {
    for (const [key, times] of this.failures) if (times[times.length - 1]!.at <= since) this.failures.delete(key);
  }
}
