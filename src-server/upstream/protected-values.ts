import { coversHostLoopback, cidrsOverlap, normalizeAddress, normalizeCidrText } from '../firewall/addresses.ts';
import { whitelistRanges } from '../firewall/fail2ban-settings.ts';
import type { FirewallState } from '../firewall/firewall-state.ts';
import { trustedRanges } from '../firewall/filters.ts';
import { parseCidr, type Cidr } from '../net/cidr.ts';

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
 * This PBX's own rule over any upstream decision: loopback, the fail2ban whitelist and trusted
 * networks are never banned. A range is refused whole when it touches any of them (it cannot be
 * carved), and so is a catch-all (`0.0.0.0/0` covers loopback).
 */
export class ProtectedValues {
  private revision = -1;
  private ranges: Cidr[] = [];

  constructor(private readonly state: FirewallState) {}

  isProtected(value: string): boolean {
    if (!value.includes('/')) return this.state.isNeverBanned(value);
    const cidr = parseCidr(value);
    if (!cidr || coversHostLoopback(cidr)) return true;
    if (this.revision !== this.state.revision) {
      this.revision = this.state.revision;
      this.ranges = [...trustedRanges(this.state.filters), ...whitelistRanges(this.state.settings)].map((r) => r.cidr);
    }
    return this.ranges.some((range) => cidrsOverlap(range, cidr));
  }
}
