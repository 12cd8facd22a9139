/** SPEC-free choice from the issue: 10 failed logins in 300 s from one IP get 429. */
export const MAX_LOGIN_FAILURES = 10;
export const LOGIN_WINDOW_MS = 300_000;

/** Failed-login counter per source IP with a sliding window. In memory: a restart forgives. */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly max = MAX_LOGIN_FAILURES,
    private readonly windowMs = LOGIN_WINDOW_MS,
  ) {}

  private recent(ip: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const kept = (this.failures.get(ip) ?? []).filter((t) => t > cutoff);
    if (kept.length) this.failures.set(ip, kept);
    else this.failures.delete(ip);
    return kept;
  }

  /** Seconds until another attempt is allowed, or 0 when the IP may try now. */
  retryAfterSeconds(ip: string): number {
    const recent = this.recent(ip);
    if (recent.length < this.max) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.max]! + this.windowMs - this.now()) / 1000));
  }

  recordFailure(ip: string): void {
    const recent = this.recent(ip);
    recent.push(this.now());
    this.failures.set(ip, recent);
    if (this.failures.size > 10_000) this.prune();
  }

  recordSuccess(ip: string): void {
    this.failures.delete(ip);
  }

  private prune(): void {
    for (const ip of [...this.failures.keys()]) this.recent(ip);
  }
}
