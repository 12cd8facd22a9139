import { parseCidr, type Cidr } from '../../net/cidr.ts';
import { cidrBounds, subtractCidrs } from '../../net/cidr-ranges.ts';
import type { Db } from '../../storage/database.ts';
import { FIXED_NEVER_BANNED } from '../model/index.ts';
import type { Fail2banSettings } from './fail2ban-fields.ts';
import { readFail2ban, whitelistRanges } from './fail2ban-settings.ts';
import { trustedRanges, type NetworkFilter } from './filters.ts';
import { loadFilters } from './filter-store.ts';

/** Why an address is never inside a ban. */
export type NeverBannedKind = 'host loopback' | 'unspecified' | 'whitelisted' | 'trusted';

/** A range no ban may hold, with what makes it so. */
export interface NeverBannedRange {
  text: string;
  cidr: Cidr;
  kind: NeverBannedKind;
}

/**
 * What the rule makes of a value someone wants banned: `clear` (ban it as it is), `refused` (the
 * value is, or lies inside, a never-banned range: no ban at all) or `carved` (a range holding
 * never-banned addresses: only the CIDRs around them may be banned).
 */
export type BanScreen =
  | { kind: 'clear' }
  | { kind: 'refused'; holder: NeverBannedRange }
  | { kind: 'carved'; pieces: string[]; holes: NeverBannedRange[] };

/** The configured never-banned ranges: trusted filters' networks, the whitelist and its entries in force at `now`. */
export function configuredNeverBanned(
  filters: readonly NetworkFilter[],
  settings: Pick<Fail2banSettings, 'whitelist' | 'whitelistEntries'>,
  now: number,
): NeverBannedRange[] {
  return [
    ...trustedRanges(filters).map((r) => ({ ...r, kind: 'trusted' as const })),
    ...whitelistRanges(settings, now).map((r) => ({ ...r, kind: 'whitelisted' as const })),
  ];
}

interface Hole extends NeverBannedRange {
  family: 'ipv4' | 'ipv6';
  first: bigint;
  last: bigint;
}

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Integer bounds of a canonical value; plain dotted quads skip the general parser (imports check 100,000). */
function boundsOf(value: string): { family: 'ipv4' | 'ipv6'; first: bigint; last: bigint; cidr?: Cidr } | undefined {
  const quad = DOTTED_QUAD.exec(value);
  if (quad) {
    const n = BigInt(quad.slice(1).reduce((sum, part) => sum * 256 + Number(part), 0));
    return { family: 'ipv4', first: n, last: n };
  }
  const cidr = parseCidr(value);
  return cidr && { ...cidrBounds(cidr), cidr };
}

/**
 * The one rule every path that creates a ban follows (manual, import, intrusion by address or
 * prefix, LAPI pull, filter deny entry): loopback, unspecified, whitelisted and trusted addresses
 * are never inside a ban. Built once per configuration; values are canonical text.
 */
export class NeverBannedSet {
  private readonly holes: Hole[];

  constructor(configured: readonly NeverBannedRange[]) {
    // Loopback and unspecified (addresses.ts), then the configuration.
    this.holes = [...FIXED_NEVER_BANNED, ...configured].map((range) => ({ ...range, ...cidrBounds(range.cidr) }));
  }

  /** The set a worker checks against: the stored filters and fail2ban settings at `now`. */
  static read(db: Db, now: number): NeverBannedSet {
    return new NeverBannedSet(configuredNeverBanned(loadFilters(db), readFail2ban(db), now));
  }

  /** The never-banned range holding this address, or undefined (also for garbage). */
  holderOf(address: string): NeverBannedRange | undefined {
    const bounds = boundsOf(address);
    if (!bounds) return undefined;
    return this.holes.find((h) => h.family === bounds.family && h.first <= bounds.first && bounds.last <= h.last);
  }

  /** What may be banned of `value` (an address or CIDR); garbage is `clear` (validation reports it). */
  screen(value: string): BanScreen {
    const bounds = boundsOf(value);
    if (!bounds) return { kind: 'clear' };
    const touches = (h: Hole) => h.family === bounds.family && h.first <= bounds.last && bounds.first <= h.last;
    // Most values touch nothing: answered without building a list (an import checks 100,000).
    if (!this.holes.some(touches)) return { kind: 'clear' };
    const touching = this.holes.filter(touches);
    const holder = touching.find((h) => h.first <= bounds.first && bounds.last <= h.last);
    if (holder) return { kind: 'refused', holder: plain(holder) };
    const pieces = subtractCidrs(
      bounds.cidr!,
      touching.map((h) => h.cidr),
    );
    return { kind: 'carved', pieces, holes: touching.map(plain) };
  }
}

const plain = ({ text, cidr, kind }: NeverBannedRange): NeverBannedRange => ({ text, cidr, kind });

/** `::1 (host loopback), 10.0.0.5 (whitelisted)`: the holes a reason names. */
export function describeHoles(holes: readonly NeverBannedRange[]): string {
  return holes.map((h) => `${h.text} (${h.kind})`).join(', ');
}

/** The reason a carved piece carries: `carved around ::1 (host loopback)`. */
export const carvedNote = (holes: readonly NeverBannedRange[]) => `carved around ${describeHoles(holes)}`;

/**
 * Why `value` may not be banned at all: `127.0.0.1 covers this PBX's own loopback address (host
 * loopback)`, `0.0.0.0 lies in 0.0.0.0/8 (unspecified)`, `10.0.0.5 is never banned (whitelisted)`.
 */
export function refusalText(value: string, holder: NeverBannedRange): string {
  if (holder.kind === 'host loopback') return `${value} covers this PBX's own loopback address (host loopback)`;
  return value === holder.text
    ? `${value} is never banned (${holder.kind})`
    : `${value} is never banned: it lies in ${holder.text} (${holder.kind})`;
}
