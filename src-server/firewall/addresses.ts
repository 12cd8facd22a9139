import ipaddr from 'ipaddr.js';
import { parseAddress, parseCidr, type Cidr } from '../net/cidr.ts';

/** The host's own addresses: never banned, never turned into a decision (they would lock the PBX out). */
const HOST_LOOPBACK = ['127.0.0.1', '::1'];

/** Canonical text of an address (`::ffff:1.2.3.4` -> `1.2.3.4`, IPv6 compressed), or undefined when invalid. */
export function normalizeAddress(value: string): string | undefined {
  const address = parseAddress(value.trim());
  return address?.toString();
}

/**
 * Canonical text of an address or CIDR as the operator wrote it: an address stays an address,
 * a CIDR keeps its prefix. Undefined for garbage and zone ids (`fe80::1%eth0`).
 */
export function normalizeCidrText(value: string): string | undefined {
  const text = value.trim();
  const cidr = parseCidr(text);
  if (!cidr) return undefined;
  return text.includes('/') ? `${cidr[0].toString()}/${cidr[1]}` : cidr[0].toString();
}

/** Splits a list written with commas and/or whitespace into its entries. */
export function splitList(value: string): string[] {
  return value.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** Whether two ranges share at least one address (same family, and one contains the other's network). */
export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  if (a[0].kind() !== b[0].kind()) return false;
  const prefix = Math.min(a[1], b[1]);
  return (a[0] as ipaddr.IPv4).match(b[0] as ipaddr.IPv4, prefix);
}

/** `0.0.0.0/0` and `::/0`: the "deny everything else" default of a filter, not a ban. */
export function isCatchAll(cidr: Cidr): boolean {
  return cidr[1] === 0;
}

/** Whether the range covers the host's own loopback address (127.0.0.1 or ::1). */
export function coversHostLoopback(cidr: Cidr): boolean {
  return HOST_LOOPBACK.some((ip) => {
    const address = ipaddr.parse(ip);
    return address.kind() === cidr[0].kind() && (address as ipaddr.IPv4).match(cidr as [ipaddr.IPv4, number]);
  });
}

/** True for the host's own loopback addresses. 127.0.0.2 and the like count as other hosts (tests rely on it). */
export function isHostLoopback(ip: string): boolean {
  return HOST_LOOPBACK.includes(normalizeAddress(ip) ?? ip);
}
