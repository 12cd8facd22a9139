/** SPEC-free choice from the issue: 10 failed logins in 300 s for one (address, account) get 429. */
export const MAX_LOGIN_FAILURES = 10;
/** An address guessing at many accounts (or none that exist) is stopped at this many failures. */
export const MAX_ADDRESS_FAILURES = 30;
export const LOGIN_WINDOW_MS = 300_000;
/** Keys kept before stale ones are pruned: a spray from many addresses cannot grow memory without bound. */
const PRUNE_ABOVE = 10_000;

/** Failure times per key within a sliding window. */
class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  retryAfterSeconds(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.max) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.max]! + this.windowMs - this.now()) / 1000));
  }

  record(key: string): void {
    const recent = this.recent(key);
    recent.push(this.now());
    // Only the newest `max` matter for the answer: a flood costs no more memory than the limit.
    this.failures.set(key, recent.slice(-this.max));
    if (this.failures.size > PRUNE_ABOVE) for (const k of [...this.failures.keys()]) this.recent(k);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

/**
 * Failed-login counters in memory (a restart forgives): one per (address, account), so a success
 * clears only its own account's count and a viewer's login between guesses at `admin` changes
 * nothing, and one per address across accounts, which a success never clears.
 */
export class LoginLimiter {
  private readonly perAccount: FailureWindow;
  private readonly perAddress: FailureWindow;

  constructor(
    now: () => number,
    maxPerAccount = MAX_LOGIN_FAILURES,
    windowMs = LOGIN_WINDOW_MS,
    maxPerAddress = MAX_ADDRESS_FAILURES,
  ) {
    this.perAccount = new FailureWindow(now, maxPerAccount, windowMs);
    this.perAddress = new FailureWindow(now, maxPerAddress, windowMs);
  }

  /** Seconds until `ip` may try `login` again, or 0 when it may try now. */
  retryAfterSeconds(ip: string, login: unknown): number {
    return Math.max(this.perAddress.retryAfterSeconds(ip), this.perAccount.retryAfterSeconds(accountKey(ip, login)));
  }

  recordFailure(ip: string, login: unknown): void {
    this.perAddress.record(ip);
    this.perAccount.record(accountKey(ip, login));
  }

  /** A success clears the (address, account) count only; the address's own count runs out by time. */
  recordSuccess(ip: string, login: unknown): void {
    this.perAccount.clear(accountKey(ip, login));
  }
}

/** The account part is bounded and exact: a login is case-sensitive, and a missing one is its own bucket. */
function accountKey(ip: string, login: unknown): string {
  return `${ip}\n${typeof login === 'string' ? login.slice(0, 100) : ''}`;
}
