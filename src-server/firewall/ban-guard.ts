import type { Context, Next } from 'koa';
import { remoteIp } from '../auth/remote-address.ts';
import { forbidden } from '../http/errors.ts';
import { normalizeAddress } from './addresses.ts';
import type { BanStore } from './ban-store.ts';

/** Guard run before any routing: a banned address gets 403 on every route. */
export function banGuard(bans: BanStore) {
  return async function refuseBanned(ctx: Context, next: Next): Promise<void> {
    const ip = remoteIp(ctx);
    // Socket addresses are canonical already for IPv4; IPv6 text is normalised to the stored form.
    if (bans.isBanned(ip) || (ip.includes(':') && bans.isBanned(normalizeAddress(ip) ?? ip))) {
      throw forbidden('Your address is banned by the intrusion-ban rules of this server; retry after the ban expires.');
    }
    await next();
  };
}
