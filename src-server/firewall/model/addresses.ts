import ipaddr from 'ipaddr.js';
import { canonicalCidr, networkText, parseAddress, parseCidr, type Cidr } from '../../net/cidr.ts';
import { cidrBounds } from '../../net/cidr-ranges.ts';

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

/** Why an address is never inside a ban whatever the configuration (firewall/filters/never-banned.ts adds the configured ones). */
export type FixedNeverBannedKind = 'host loopback' | 'unspecified';

/** The raw IPv6 range: parseCidr would read `::ffff:0:0/96` as IPv4's `0.0.0.0/0`. */
const MAPPED_SPACE = ipaddr.IPv6.parseCIDR('::ffff:0:0/96') as Cidr;

/**
 * Never banned whatever the configuration: the host's own loopback (a ban would lock the PBX out;
 * 127.0.0.2 and the like count as other hosts) and the unspecified addresses no packet comes from:
 * IPv4 "this network" `0.0.0.0/8`, IPv6 `::`, and the whole IPv4-mapped space (a range over all
 * of it is a catch-all in disguise; `::ffff:0:0/96` itself is `0.0.0.0/0`).
 */
export const FIXED_NEVER_BANNED: ReadonlyArray<{ text: string; cidr: Cidr; kind: FixedNeverBannedKind }> = [
  ...HOST_LOOPBACK.map((text) => ({ text, cidr: parseCidr(text)!, kind: 'host loopback' as const })),
  { text: '0.0.0.0/8', cidr: parseCidr('0.0.0.0/8')!, kind: 'unspecified' },
  { text: '::', cidr: parseCidr('::')!, kind: 'unspecified' },
  { text: '::ffff:0:0/96', cidr: MAPPED_SPACE, kind: 'unspecified' },
];
const FIXED_BOUNDS = FIXED_NEVER_BANNED.map((range) => ({ ...range, ...cidrBounds(range.cidr) }));

/** Whether the range shares an address with a fixed never-banned range of this kind. */
function coversFixed(cidr: Cidr, kind: FixedNeverBannedKind): boolean {
  const bounds = cidrBounds(canonicalCidr(cidr)); // ::ffff:127.0.0.1 is 127.0.0.1
  return FIXED_BOUNDS.some(
    (hole) =>
      hole.kind === kind && hole.family === bounds.family && hole.first <= bounds.last && bounds.first <= hole.last,
  );
}

/** Whether the range holds an unspecified address or a whole mapped space (see FIXED_NEVER_BANNED). */
export const coversUnspecified = (cidr: Cidr): boolean => coversFixed(cidr, 'unspecified');

/** Whether the range covers the host's own loopback address (127.0.0.1 or ::1). */
export const coversHostLoopback = (cidr: Cidr): boolean => coversFixed(cidr, 'host loopback');

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
