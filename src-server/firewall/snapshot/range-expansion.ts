import ipaddr from 'ipaddr.js';
import { parseCidr } from '../../net/cidr.ts';

/**
 * The widest range published as single addresses to keys with `expand_ranges`: 65,536 addresses
 * (IPv4 /16, IPv6 /112). crowdsec-firewall-bouncer's nftables mode keeps only the network address
 * of a Range decision, so those keys get one Ip decision per address instead. Wider ranges stay
 * one Range decision (only the iptables/ipset mode enforces them).
 */
export const MAX_EXPANDED_PREFIX = { ipv4: 16, ipv6: 112 } as const;

/**
 * The addresses of a CIDR value, or undefined when it is not a range or is wider than the limit.
 * A `/32` (or IPv6 `/128`) is its one address.
 */
export function expandRange(value: string): string[] | undefined {
  if (!value.includes('/')) return undefined;
  const cidr = parseCidr(value);
  if (!cidr) return undefined;
  const [address, prefix] = cidr;
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  if (prefix < MAX_EXPANDED_PREFIX[address.kind()]) return undefined;
  const count = 2 ** (bits - prefix);
  if (address.kind() === 'ipv4') {
    const bytes = (address as ipaddr.IPv4).toByteArray();
    const network = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
    const first = network - (network % count);
    return Array.from({ length: count }, (_, i) => {
      const n = first + i;
      return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
    });
  }
  // IPv6 /112 or narrower: only the last 16-bit group varies.
  const parts = (address as ipaddr.IPv6).parts.slice();
  const first = parts[7]! - (parts[7]! % count);
  return Array.from({ length: count }, (_, i) => {
    parts[7] = first + i;
    return new ipaddr.IPv6(parts).toString();
  });
}
