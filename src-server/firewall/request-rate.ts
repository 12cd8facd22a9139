import type { Context, Next } from 'koa';
import { remoteIp } from '../auth/remote-address.ts';
import type { Clock } from '../clock.ts';
import { tooManyRequests } from '../wire/errors.ts';
import type { FirewallState } from './firewall-state.ts';

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

/**
 * `PBXFirewallMaxReqSec`: an address sending more requests per second than the fail2ban setting
 * gets 429 until the next second. Addresses that are never banned (loopback, whitelist, trusted
 * networks) are never limited.
 */
export function requestRateGuard(state: FirewallState, clock: Clock) {
  const counter = new RequestRateCounter(clock);
  return async function limitRequestRate(ctx: Context, next: Next): Promise<void> {
    const ip = remoteIp(ctx);
    const limit = state.settings.PBXFirewallMaxReqSec;
    if (counter.hit(ip) > limit && !state.isNeverBanned(ip)) {
      throw tooManyRequests(`More than ${limit} requests per second from ${ip}; slow down and retry.`, 1);
    }
    await next();
  };
}
