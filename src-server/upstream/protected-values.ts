import { normalizeAddress, normalizeCidrText } from '../firewall/model/index.ts';
import type { FirewallState, RegisteredAddresses } from '../firewall/filters/index.ts';
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
 * catch-all (`0.0.0.0/0` covers loopback). Nor is a decision enforced that covers an address with
 * registered phones (`holdsPhones`; firewall/registered-addresses.ts): counted apart, so the link
 * status shows it.
 */
export class ProtectedValues {
  constructor(
    private readonly state: FirewallState,
    private readonly registered?: RegisteredAddresses,
  ) {}

  /** Never enforced: the never-banned rule, or registered phones behind it. */
  isProtected(value: string): boolean {
    if (!parseCidr(value)) return true;
    return this.state.neverBanned.screen(value).kind !== 'clear' || this.holdsPhones(value);
  }

  /** Whether the value covers an address with registered phones (the protection on). */
  holdsPhones(value: string): boolean {
    if (!this.registered) return false;
    return value.includes('/') ? this.registered.protectedPhones(value).size > 0 : this.registered.isProtected(value);
  }
}
