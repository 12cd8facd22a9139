import { normalizeAddress, normalizeCidrText } from '../firewall/model/index.ts';
import type { FirewallState } from '../firewall/filters/index.ts';
import { parseCidr } from '../net/cidr.ts';

/** An upstream value in this PBX's canonical text, or undefined when it is not an address or range. */
export function canonicalUpstreamValue(value: string, scope: 'Ip' | 'Range'): string | undefined {
  if (scope === 'Ip') return value.includes('/') ? undefined : normalizeAddress(value);
  const text = normalizeCidrText(value);
  if (!text) return undefined;
  // A /32 or /128 "range" is one address: published the same way as this PBX's own bans.
  const cidr = parseCidr(text)!;
  return cidr[1] === (cidr[0].kind() === 'ipv4' ? 32 : 128) ? cidr[0].toString() : text;
}

/**
 * This PBX's own rule over any upstream decision (firewall/filters/never-banned.ts): loopback, unspecified
 * addresses, the fail2ban whitelist and trusted networks are never banned. A range is refused whole
 * when it touches any of them (an upstream ban is one value: it is not carved), and so is a
 * catch-all (`0.0.0.0/0` covers loopback).
 */
export class ProtectedValues {
  constructor(private readonly state: FirewallState) {}

  isProtected(value: string): boolean {
    if (!parseCidr(value)) return true;
    return this.state.neverBanned.screen(value).kind !== 'clear';
  }
}
