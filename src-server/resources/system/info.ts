import { networkInterfaces } from 'node:os';

/** Non-internal addresses of this host, IPv4 first: what a remote bouncer would connect to. */
export function hostAddresses(): string[] {
  const found: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) {
      if (!entry.internal && !entry.address.startsWith('fe80:')) found.push(entry.address);
    }
  }
  return found.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')) || a.localeCompare(b));
}

/** The base URL a CrowdSec bouncer's `api_url` takes (trailing slash required; the client appends v1/...). */
export function bouncerApiUrl(scheme: 'http' | 'https', address: string, port: number): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return `${scheme}://${host}:${port}/pbxcore/api/v3/firewall-bouncer/`;
}
