import ipaddr from 'ipaddr.js';
import { withHost } from './bouncer-config.ts';

/** A URL's host as an address (brackets off), or null for a name. */
function hostAddress(url: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return ipaddr.isValid(host) ? ipaddr.parse(host) : null;
  } catch {
    return null;
  }
}

/** Whether `url`'s host lies inside `permit` (a CIDR or one address). */
function insidePermit(url: string, permit: string): boolean {
  const address = hostAddress(url);
  if (!address) return false;
  try {
    const range = permit.includes('/') ? ipaddr.parseCIDR(permit) : ([ipaddr.parse(permit), -1] as const);
    if (range[1] === -1) return address.toNormalizedString() === range[0].toNormalizedString();
    return address.kind() === range[0].kind() && address.match(range as [typeof address, number]);
  } catch {
    return false;
  }
}

const isLoopback = (url: string) => hostAddress(url)?.range() === 'loopback';

/**
 * The URLs a router feed key can actually fetch from, by its binding: a "This computer only" key
 * only loopback (it refuses every other source), a key bound to a network filter the server's
 * addresses inside that network (the router sits there), otherwise every address. When the
 * binding leaves none (a filter of a network the server has no address in), every non-loopback one.
 */
export function feedApiUrls(apiUrls: readonly string[], networkfilterid: string, permit?: string): string[] {
  const outside = apiUrls.filter((url) => !isLoopback(url));
  if (networkfilterid === 'localhost') {
    const loopback = apiUrls.filter(isLoopback);
    const derived = apiUrls[0] ? withHost(apiUrls[0], '127.0.0.1') : null;
    return loopback.length ? loopback : derived ? [derived] : [];
  }
  if (networkfilterid !== 'none' && permit) {
    const inside = outside.filter((url) => insidePermit(url, permit));
    if (inside.length) return inside;
  }
  return outside.length ? outside : [...apiUrls];
}
