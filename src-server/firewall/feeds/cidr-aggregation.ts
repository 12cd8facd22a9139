import { parseCidr, type Cidr } from '../../net/cidr.ts';
import { cidrBounds, rangeToCidrs } from '../../net/cidr-ranges.ts';
import { identityOf } from '../model/index.ts';
import { byPriority, type KeyEntry } from './key-caps.ts';

type Family = 'ipv4' | 'ipv6';

/** The scenario of a CIDR that merges several entries (a bouncer deletes by value; the label says why it exists). */
export const AGGREGATE_SCENARIO = 'pbx/aggregate';
export const AGGREGATE_ORIGIN = 'pbx-aggregate';

interface Span {
  family: Family;
  first: bigint;
  last: bigint;
}

interface Group extends Span {
  entries: KeyEntry[];
}

const compare = (a: Span, b: Span) =>
  a.family !== b.family ? (a.family < b.family ? -1 : 1) : a.first < b.first ? -1 : a.first > b.first ? 1 : 0;

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

/** Bounds of a canonical value; IPv4 (most of any list) without the general parser. */
function boundsOf(value: string): Span | undefined {
  const quad = IPV4.exec(value);
  if (quad) {
    const n = ((+quad[1]! << 24) >>> 0) + (+quad[2]! << 16) + (+quad[3]! << 8) + +quad[4]!;
    const size = 2 ** (32 - (quad[5] === undefined ? 32 : +quad[5]));
    const first = n - (n % size);
    return { family: 'ipv4', first: BigInt(first), last: BigInt(first + size - 1) };
  }
  const cidr = parseCidr(value);
  return cidr && cidrBounds(cidr);
}

const touches = (span: Span, holes: readonly Span[]) =>
  holes.some((hole) => hole.family === span.family && hole.first <= span.last && span.first <= hole.last);

/** The spans left of [first, last] once the holes (sorted, same family) are taken out. */
function withoutHoles(span: Span, holes: readonly Span[]): Span[] {
  const out: Span[] = [];
  let start = span.first;
  for (const hole of holes) {
    if (hole.family !== span.family || hole.last < start || hole.first > span.last) continue;
    if (hole.first > start) out.push({ family: span.family, first: start, last: hole.first - 1n });
    start = hole.last + 1n;
    if (start > span.last) return out;
  }
  out.push({ family: span.family, first: start, last: span.last });
  return out;
}

/**
 * Entries as the fewest CIDRs: adjacent and overlapping entries are merged, per family, and each
 * merged run is written as the fewest aligned CIDRs (`net/cidr-ranges.ts`). The addresses covered
 * are exactly the input's, less `protectedRanges` (whitelisted, trusted, loopback): a merge never
 * reaches into them. An entry nothing merges with stays as it is; a merged CIDR carries the
 * `pbx/aggregate` scenario, the class of its most important entry and the latest end of its entries.
 */
export function aggregateEntries(entries: readonly KeyEntry[], protectedRanges: readonly Cidr[] = []): KeyEntry[] {
  const holes = protectedRanges.map(cidrBounds).sort(compare);
  const spans: Array<Span & { entry: KeyEntry }> = [];
  for (const entry of entries) {
    const bounds = boundsOf(entry.key.value);
    if (bounds) spans.push({ ...bounds, entry });
  }
  spans.sort(compare);
  const groups: Group[] = [];
  for (const span of spans) {
    const open = groups[groups.length - 1];
    if (open && open.family === span.family && span.first <= open.last + 1n) {
      if (span.last > open.last) open.last = span.last;
      open.entries.push(span.entry);
    } else groups.push({ family: span.family, first: span.first, last: span.last, entries: [span.entry] });
  }
  const out: KeyEntry[] = [];
  for (const group of groups) {
    // Most entries touch no other and no protected range: kept as they are, no CIDR math.
    if (group.entries.length === 1 && !touches(group, holes)) {
      out.push(group.entries[0]!);
      continue;
    }
    const pieces = withoutHoles(group, holes).flatMap((span) => rangeToCidrs(span.first, span.last, span.family));
    const only = group.entries.length === 1 ? group.entries[0]! : undefined;
    if (only && pieces.length === 1 && pieces[0] === only.key.value) {
      out.push(only);
      continue;
    }
    const lead = [...group.entries].sort(byPriority)[0]!;
    let expiresAt: number | null = 0;
    for (const e of group.entries)
      expiresAt = e.expiresAt === null || expiresAt === null ? null : Math.max(expiresAt, e.expiresAt);
    for (const value of pieces) {
      const key = { value, scenario: AGGREGATE_SCENARIO, origin: AGGREGATE_ORIGIN };
      out.push({ key, identity: identityOf(key), expiresAt, cls: lead.cls });
    }
  }
  return out;
}
