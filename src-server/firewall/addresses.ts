import ipaddr from 'ipaddr.js';
import { canonicalCidr, networkText, parseAddress, parseCidr, type Cidr } from '../net/cidr.ts';

/** The host's own addresses: never banned, never turned into a decision (they would lock the PBX out). */
const HOST_LOOPBACK = ['127.0.0.1', '::1'];
/** Parsed once: every deny entry of every filter is checked against them at each snapshot build. */
const HOST_LOOPBACK_PARSED = HOST_LOOPBACK.map((ip) => ipaddr.parse(ip));

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
 * Canonical text of an address or range to block or trust: a range becomes its network
 * (`203.0.113.77/24` is `203.0.113.0/24`, see networkText), and a range of one address is that
 * address (`192.0.2.7/32` is `192.0.2.7`), so each set of addresses has one value. Undefined for
 * garbage and zone ids (`fe80::1%eth0`).
 */
export function normalizeCidrText(value: string): string | undefined {
  const text = value.trim();
  const cidr = parseStrictCidr(text);
  if (!cidr) return undefined;
  const single = cidr[1] === (cidr[0].kind() === 'ipv4' ? 32 : 128);
  return text.includes('/') && !single ? networkText(cidr) : cidr[0].toString();
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

const THIS_NETWORK = ipaddr.parseCIDR('0.0.0.0/8') as [ipaddr.IPv4, number];
const MAPPED_SPACE = ipaddr.parseCIDR('::ffff:0:0/96') as [ipaddr.IPv6, number];
const UNSPECIFIED_V6 = ipaddr.parse('::') as ipaddr.IPv6;

/**
 * Whether the range holds an unspecified address or a whole mapped space: IPv4 "this network"
 * (`0.0.0.0/8`), IPv6 `::`, or an IPv6 range over all of `::ffff:0:0/96`. No packet comes from
 * these, so a ban of them blocks nothing real, and the wider forms are catch-alls in disguise.
 */
export function coversUnspecified(cidr: Cidr): boolean {
  const range = canonicalCidr(cidr);
  if (range[0].kind() === 'ipv4') return cidrsOverlap(range, THIS_NETWORK);
  const v6 = range as [ipaddr.IPv6, number];
  return UNSPECIFIED_V6.match(v6) || (v6[1] <= MAPPED_SPACE[1] && MAPPED_SPACE[0].match(v6));
}

/** Whether the range covers the host's own loopback address (127.0.0.1 or ::1). */
export function coversHostLoopback(cidr: Cidr): boolean {
  const range = canonicalCidr(cidr); // ::ffff:127.0.0.1 is 127.0.0.1
  return HOST_LOOPBACK_PARSED.some(
    (address) => address.kind() === range[0].kind() && (address as ipaddr.IPv4).match(range as [ipaddr.IPv4, number]),
  );
}

/**
 * Why a block of this range could never work: it covers the host's own loopback (never published
 * to bouncers: it would lock the PBX out), or an address no traffic comes from. Undefined: it can
 * be blocked. The catch-all covers both; each caller decides what it means there.
 */
export function unblockableReason(cidr: Cidr): 'host-loopback' | 'unspecified' | undefined {
  if (coversHostLoopback(cidr)) return 'host-loopback';
  if (coversUnspecified(cidr)) return 'unspecified';
  return undefined;
}

/** True for the host's own loopback addresses. 127.0.0.2 and the like count as other hosts (tests rely on it). */
export function isHostLoopback(ip: string): boolean {
  return HOST_LOOPBACK.includes(normalizeAddress(ip) ?? ip);
}
