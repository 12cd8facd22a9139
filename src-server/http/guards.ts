import type { Context, Next } from 'koa';
import { remoteIp } from '../auth/remote-address.ts';
import type { Clock } from '../clock.ts';
import type { BanStore } from '../firewall/bans/index.ts';
import type { FirewallState } from '../firewall/filters/index.ts';
import { isHostLoopback } from '../firewall/model/index.ts';
import { isBannedAddress, RequestRateCounter } from '../firewall/intrusion/index.ts';
import { forbidden, tooManyRequests } from '../wire/errors.ts';

/**
 * Guard run before any routing: a banned address gets 403 on every route except those `exempt`
 * (the bouncer export judges bans itself, after checking the key). The host's own loopback is never
 * refused, whatever a ban holds: it is the console's own address.
 */
export function banGuard(bans: BanStore, exempt: (path: string) => boolean) {
  return async function refuseBanned(ctx: Context, next: Next): Promise<void> {
    const ip = remoteIp(ctx);
    if (!exempt(ctx.path) && !isHostLoopback(ip) && isBannedAddress(bans, ip)) {
      throw forbidden('Your address is banned by the intrusion-ban rules of this server; retry after the ban expires.');
    }
    await next();
  };
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
