import type { Clock } from '../../clock.ts';

/**
 * Counts requests per address in one-second windows. A fixed window (rather than a sliding log)
 * keeps the cost at one map update per request and the memory at one entry per active address;
 * the map is dropped whenever the second changes.
 */
export class RequestRateCounter {
  private second = -1;
  private readonly counts = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request from `ip` and returns how many it has made in the current second. */
  hit(ip: string): number {
    const second = Math.floor(this.clock.now() / 1000);
    if (second !== this.second) {
      this.second = second;
      this.counts.clear();
    }
    const count = (this.counts.get(ip) ?? 0) + 1;
    this.counts.set(ip, count);
    return count;
  }
}
