import { hostAddresses } from '../../net/host-addresses.ts';

export { hostAddresses };

/**
 * The addresses a listener bound to `bindHost` really answers on, remote ones first and loopback
 * last: every IPv4 address for 0.0.0.0, every address for `::` (dual stack), else just that one.
 */
export function listeningAddresses(bindHost: string): string[] {
  if (bindHost === '0.0.0.0') return [...hostAddresses().filter((a) => !a.includes(':')), '127.0.0.1'];
  if (bindHost === '::') return [...hostAddresses(), '127.0.0.1', '::1'];
  return [bindHost];
}

/** The base URL a CrowdSec bouncer's `api_url` takes (trailing slash required; the client appends v1/...). */
export function bouncerApiUrl(scheme: 'http' | 'https', address: string, port: number): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return `${scheme}://${host}:${port}/pbxcore/api/v3/firewall-bouncer/`;
}
