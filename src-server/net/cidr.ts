import ipaddr from 'ipaddr.js';

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Bits of an IPv4-mapped IPv6 address (`::ffff:0:0/96`) in front of the IPv4 part. */
const MAPPED_PREFIX_BITS = 96;

const isMapped = (address: ipaddr.IPv4 | ipaddr.IPv6): address is ipaddr.IPv6 =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress();

/**
 * The canonical form of a range: an IPv4-mapped IPv6 range of at least /96 is the IPv4 range it
 * maps (`::ffff:192.0.2.0/120` is `192.0.2.0/24`), so every check and every stored value sees one
 * form. Shorter IPv6 prefixes cover more than IPv4 space and stay IPv6.
 */
export function canonicalCidr(cidr: Cidr): Cidr {
  const [address, prefix] = cidr;
  return isMapped(address) && prefix >= MAPPED_PREFIX_BITS
    ? [address.toIPv4Address(), prefix - MAPPED_PREFIX_BITS]
    : cidr;
}

/**
 * Parses an address or CIDR (IPv4 or IPv6) into its canonical form (see canonicalCidr); returns
 * undefined for anything else, zone ids included.
 */
export function parseCidr(value: string): Cidr | undefined {
  const text = value.trim();
  if (text.includes('%')) return undefined;
  try {
    // The family is known from the text: ipaddr.parseCIDR would try (and fail) IPv6 first on every IPv4 range.
    if (text.includes('/'))
      return canonicalCidr(text.includes(':') ? ipaddr.IPv6.parseCIDR(text) : ipaddr.IPv4.parseCIDR(text));
    const address = parseAddress(text);
    return address && [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** Canonical text of a range: `address/prefix`, IPv4-mapped unwrapped and IPv6 compressed (RFC 5952). */
export function cidrText(cidr: Cidr): string {
  const [address, prefix] = canonicalCidr(cidr);
  return `${address.toString()}/${prefix}`;
}

/**
 * The one text of a range: its network address (host bits cleared) and prefix, IPv4-mapped
 * unwrapped, IPv6 compressed: `203.0.113.77/24` is `203.0.113.0/24`. Every stored range uses it,
 * so one range has one identity for bouncers, unbans and overlap checks.
 */
export function networkText(cidr: Cidr): string {
  const [address, prefix] = canonicalCidr(cidr);
  const family = address.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6;
  return `${family.networkAddressFromCIDR(`${address.toString()}/${prefix}`).toString()}/${prefix}`;
}

/** Parses a single address, unwrapping IPv4-mapped IPv6. */
export function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const text = value.trim();
  if (text.includes('%')) return undefined;
  // One parser per family (the text says which): ipaddr.isValid + parse would parse it up to four times.
  const family = text.includes(':') ? ipaddr.IPv6 : ipaddr.IPv4;
  if (!family.isValid(text)) return undefined;
  const address = family.parse(text);
  return isMapped(address) ? address.toIPv4Address() : address;
}

/** Whether `ip` lies in `cidr`; false when either is invalid or the families differ. */
export function cidrContains(cidr: string | Cidr, ip: string): boolean {
  const range = typeof cidr === 'string' ? parseCidr(cidr) : canonicalCidr(cidr);
  const address = parseAddress(ip);
  if (!range || !address || range[0].kind() !== address.kind()) return false;
  return address.match(range as [ipaddr.IPv4, number]);
}
