import ipaddr from 'ipaddr.js';
import type { Cidr } from './cidr.ts';

type Family = 'ipv4' | 'ipv6';

const BITS: Record<Family, number> = { ipv4: 32, ipv6: 128 };

/** An address as an unsigned integer (BigInt, so IPv6 fits). */
export function addressToBigInt(address: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  let value = 0n;
  const bytes = address.toByteArray();
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** The address of an integer in a family. */
export function bigIntToAddress(value: bigint, family: Family): ipaddr.IPv4 | ipaddr.IPv6 {
  const length = BITS[family] / 8;
  const bytes: number[] = new Array(length);
  for (let i = length - 1; i >= 0; i--) {
    bytes[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return ipaddr.fromByteArray(bytes);
}

/** First and last address of a range, as integers. */
export function cidrBounds(cidr: Cidr): { family: Family; first: bigint; last: bigint } {
  const family = cidr[0].kind();
  const hostBits = BigInt(BITS[family] - cidr[1]);
  const mask = (1n << hostBits) - 1n;
  const first = addressToBigInt(cidr[0]) & ~mask;
  return { family, first, last: first | mask };
}

/** Whether a CIDR has bits set past its prefix (`10.0.0.5/24`). */
export function hasHostBits(cidr: Cidr): boolean {
  return addressToBigInt(cidr[0]) !== cidrBounds(cidr).first;
}

/** Text of a range as a blocklist writes it: a single address bare, a network as `net/prefix`. */
export function rangeText(first: bigint, prefix: number, family: Family): string {
  const address = bigIntToAddress(first, family).toString();
  return prefix === BITS[family] ? address : `${address}/${prefix}`;
}

/**
 * The smallest set of CIDRs covering exactly [first, last] (both inclusive), in address order:
 * each step takes the largest aligned block that starts at `first` and stays within `last`.
 */
export function rangeToCidrs(first: bigint, last: bigint, family: Family): string[] {
  const bits = BITS[family];
  const out: string[] = [];
  let start = first;
  while (start <= last) {
    let size = 0;
    // Grow the block while it stays aligned on `start` and inside the range.
    while (
      size < bits &&
      (start & ((1n << BigInt(size + 1)) - 1n)) === 0n &&
      start + (1n << BigInt(size + 1)) - 1n <= last
    )
      size++;
    out.push(rangeText(start, bits - size, family));
    start += 1n << BigInt(size);
  }
  return out;
}

/**
 * A range less some holes, as the fewest CIDRs: what is left of `cidr` once every address of
 * `holes` (same family; others ignored) is taken out. Empty when the holes cover it.
 */
export function subtractCidrs(cidr: Cidr, holes: readonly Cidr[]): string[] {
  const { family, first, last } = cidrBounds(cidr);
  const cuts = holes
    .filter((hole) => hole[0].kind() === family)
    .map(cidrBounds)
    .filter((hole) => hole.last >= first && hole.first <= last)
    .sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const out: string[] = [];
  let start = first;
  for (const hole of cuts) {
    if (hole.first > start) out.push(...rangeToCidrs(start, hole.first - 1n, family));
    if (hole.last + 1n > start) start = hole.last + 1n;
    if (start > last) return out;
  }
  out.push(...rangeToCidrs(start, last, family));
  return out;
}
