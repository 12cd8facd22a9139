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
