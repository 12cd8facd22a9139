import ipaddr from 'ipaddr.js';
import { canonicalCidr, cidrText, parseAddress, parseCidr, type Cidr } from '../net/cidr.ts';

/** The host's own addresses: never banned, never turned into a decision (they would lock the PBX out). */
const HOST_LOOPBACK = ['127.0.0.1', '::1'];

/**
 * ipaddr.js also accepts legacy IPv4 forms (`1.2.3`, `0x7f.1`); an operator who types them almost
 * certainly made a mistake, so only dotted quads and proper IPv6 text count as addresses.
 */
function strictAddressText(text: string): boolean {
  if (text.includes('%')) return false;
  return text.includes(':') ? ipaddr.IPv6.isValid(text) : ipaddr.IPv4.isValidFourPartDecimal(text);
}

/** An address or CIDR in strict form (see above), canonical (IPv4-mapped IPv6 unwrapped), or undefined. */
export function parseStrictCidr(value: string): Cidr | undefined {
  const text = value.trim();
  const slash = text.indexOf('/');
  if (!strictAddressText(slash === -1 ? text : text.slice(0, slash))) return undefined;
  if (slash !== -1 && !/^\d{1,3}$/.test(text.slice(slash + 1))) return undefined;
  return parseCidr(text);
}

/** Canonical text of an address (`::ffff:1.2.3.4` -> `1.2.3.4`, IPv6 compressed), or undefined when invalid. */
export function normalizeAddress(value: string): string | undefined {
  const text = value.trim();
  if (!strictAddressText(text)) return undefined;
  return parseAddress(text)?.toString();
}

/**
 * Canonical text of an address or CIDR as the operator wrote it: an address stays an address,
 * a CIDR keeps its prefix. Undefined for garbage and zone ids (`fe80::1%eth0`).
 */
export function normalizeCidrText(value: string): string | undefined {
  const text = value.trim();
  const cidr = parseStrictCidr(text);
  if (!cidr) return undefined;
  return text.includes('/') ? cidrText(cidr) : cidr[0].toString();
}

/**
 * A list of addresses and CIDRs (commas and/or whitespace) with each valid entry in canonical text
 * and the separators as written; entries that do not parse are left for validation to report.
 */
export function canonicalListText(value: string): string {
  return value.replace(/[^\s,]+/g, (entry) => normalizeCidrText(entry) ?? entry);
}

/** Splits a list written with commas and/or whitespace into its entries. */
export function splitList(value: string): string[] {
  return value.split(/[\s,]+/).filter((entry) => entry !== '');
}

/** Whether two ranges share at least one address (same family, and one contains the other's network). */
export function cidrsOverlap(first: Cidr, second: Cidr): boolean {
  const a = canonicalCidr(first);
  const b = canonicalCidr(second);
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
  const range = canonicalCidr(cidr); // ::ffff:127.0.0.1 is 127.0.0.1
  return HOST_LOOPBACK.some((ip) => {
    const address = ipaddr.parse(ip);
    return address.kind() === range[0].kind() && (address as ipaddr.IPv4).match(range as [ipaddr.IPv4, number]);
  });
}

/** True for the host's own loopback addresses. 127.0.0.2 and the like count as other hosts (tests rely on it). */
export function isHostLoopback(ip: string): boolean {
  return HOST_LOOPBACK.includes(normalizeAddress(ip) ?? ip);
}
