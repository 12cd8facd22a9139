import ipaddr from 'ipaddr.js';

export type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an address or CIDR (IPv4 or IPv6); returns undefined for anything else, zone ids included. */
export function parseCidr(value: string): Cidr | undefined {
  const text = value.trim();
  if (text.includes('%')) return undefined;
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    if (!ipaddr.isValid(text)) return undefined;
    const address = ipaddr.parse(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** Parses a single address, unwrapping IPv4-mapped IPv6. */
export function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (value.includes('%') || !ipaddr.isValid(value)) return undefined;
  const address = ipaddr.parse(value);
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** Whether `ip` lies in `cidr`; false when either is invalid or the families differ. */
export function cidrContains(cidr: string | Cidr, ip: string): boolean {
  const range = typeof cidr === 'string' ? parseCidr(cidr) : cidr;
  const address = parseAddress(ip);
  if (!range || !address || range[0].kind() !== address.kind()) return false;
  return address.match(range as [ipaddr.IPv4, number]);
}
