import type { Context, Next } from 'koa';
import { remoteIp } from '../auth/remote-address.ts';
import { forbidden } from '../wire/errors.ts';
import type { Services } from '../services.ts';
import { normalizeAddress } from './addresses.ts';
import type { BanStore } from './ban-store.ts';
import type { IntrusionDetector } from './intrusion-detector.ts';

/** Whether a socket address has a ban in force (IPv6 text normalised to the stored form). */
export function isBannedAddress(bans: BanStore, ip: string): boolean {
  return bans.isBanned(ip) || (ip.includes(':') && bans.isBanned(normalizeAddress(ip) ?? ip));
}

/**
 * Lifts the `http` ban of `ip`, if any, and forgets its counted failures. Used when the address
 * proves it holds a valid credential after failing with a wrong one. Returns whether a ban was lifted.
 */
export function liftHttpBan(services: Services, bans: BanStore, detector: IntrusionDetector, ip: string, reason: string): boolean {
  const address = normalizeAddress(ip) ?? ip;
  if (!bans.get('http', address)) return false;
  services.db.prepare("UPDATE firewall_bans SET lifted_at = ? WHERE ip = ? AND category = 'http' AND lifted_at IS NULL").run(services.clock.now(), address);
  bans.reloadIp(address);
  detector.forgetIp(address);
  services.logger.info({ ip: address, reason }, 'ban lifted');
  return true;
}

/**
 * Guard run before any routing: a banned address gets 403 on every route except those `exempt`
 * (the bouncer export judges bans itself, after checking the key).
 */
export function banGuard(bans: BanStore, exempt: (path: string) => boolean) {
  return async function refuseBanned(ctx: Context, next: Next): Promise<void> {
    if (!exempt(ctx.path) && isBannedAddress(bans, remoteIp(ctx))) {
      throw forbidden('Your address is banned by the intrusion-ban rules of this server; retry after the ban expires.');
    }
    await next();
  };
}
