import type ipaddr from 'ipaddr.js';
import { parseCidr, type Cidr } from '../../net/cidr.ts';
import type { Db } from '../../storage/database.ts';
import { activeBansNear } from './ban-queries.ts';
import { BanStore } from './ban-store.ts';
import { type BanKind, cidrsOverlap } from '../model/index.ts';
import { subtractCidrs } from '../../net/cidr-ranges.ts';
import { carvedNote } from '../filters/index.ts';
import type { BusEvent } from '../../wire/types.ts';

/** One ban a whitelist entry or trusted network lifted, or left in force because it is wider. */
export interface CoveredBan {
  ip: string;
  category: BanKind;
}

/** What saving a protected range did to the bans in force. */
export interface CoverOutcome {
  /** Bans inside a protected range: lifted. */
  lifted: CoveredBan[];
  /**
   * Range bans wider than the protected range that overlap it: replaced by the CIDRs around it
   * (`pieces`), so that every publisher (guard, stream, /v1/decisions, lookup, feeds) agrees the
   * protected addresses are not blocked and the rest stays blocked.
   */
  wider: Array<CoveredBan & { covers: string; pieces: string[] }>;
}

/** Whether `inner` lies entirely inside `outer`. */
function within(inner: Cidr, outer: Cidr): boolean {
  if (inner[0].kind() !== outer[0].kind() || inner[1] < outer[1]) return false;
  return (inner[0] as ipaddr.IPv4).match(outer as [ipaddr.IPv4, number]);
}

/**
 * Lifts every ban in force at `now` that lies inside one of `ranges` (a whitelist entry or a
 * trusted network just saved), and carves every wider one around them (firewall/filters/never-banned.ts:
 * no ban holds a never-banned address), in the caller's transaction, as `by`. Runs in workers; the
 * caller tells the web thread with coverEvents.
 */
export function liftBansCoveredBy(
  db: Db,
  ranges: ReadonlyArray<{ text: string; cidr: Cidr }>,
  now: number,
  by: string,
  kind: 'whitelisted' | 'trusted' = 'whitelisted',
): CoverOutcome {
  const outcome: CoverOutcome = { lifted: [], wider: [] };
  if (ranges.length === 0) return outcome;
  const rows = activeBansNear(db, ranges, now);
  for (const row of rows) {
    const cidr = parseCidr(row.ip);
    if (!cidr) continue;
    const inside = ranges.find((r) => within(cidr, r.cidr));
    if (inside) {
      BanStore.liftRow(db, row.id, now, `${by} (whitelisted ${inside.text})`);
      outcome.lifted.push({ ip: row.ip, category: row.category });
      continue;
    }
    const overlapping = ranges.filter((r) => cidrsOverlap(cidr, r.cidr));
    if (overlapping.length === 0) continue;
    const note = carvedNote(overlapping.map((r) => ({ ...r, kind })));
    const pieces = subtractCidrs(
      cidr,
      overlapping.map((r) => r.cidr),
    );
    const written = BanStore.carveRow(db, row.id, pieces, note, now, `${by} (${note})`);
    outcome.wider.push({
      ip: row.ip,
      category: row.category,
      covers: overlapping.map((r) => r.text).join(', '),
      pieces: written,
    });
  }
  return outcome;
}

/** The answer's messages about a cover: what was lifted, and which wider bans were carved around it. */
export function coverMessages(outcome: CoverOutcome): { info: string[]; warning: string[] } {
  const info = outcome.lifted.length
    ? [
        `Lifted ${outcome.lifted.length} ban(s) now whitelisted: ${outcome.lifted.map((b) => `${b.ip} (${b.category})`).join(', ')}.`,
      ]
    : [];
  const warning = outcome.wider.map(
    (b) =>
      `The ${b.category} ban of ${b.ip} is wider than ${b.covers}: it now blocks the ${b.pieces.length} ` +
      `range(s) around it (carved), and ${b.covers} is not blocked.`,
  );
  return { info, warning };
}

/** The audit entry's record of what a cover lifted and carved (empty when nothing was). */
export function coverAuditChanges(outcome: CoverOutcome): Array<{ field: string; after: unknown }> {
  return [
    ...(outcome.lifted.length
      ? [{ field: 'liftedBans', after: outcome.lifted.map((b) => `${b.ip} (${b.category})`) }]
      : []),
    ...(outcome.wider.length
      ? [{ field: 'carvedBans', after: outcome.wider.map((b) => `${b.ip} (${b.category}) around ${b.covers}`) }]
      : []),
  ];
}

/** Above this many lifted addresses the web thread re-reads every ban once rather than each address. */
const RELOAD_ABOVE = 100;

/** The bus events that tell the web thread what a cover lifted. */
export function coverEvents(outcome: CoverOutcome): BusEvent[] {
  const ips = [...new Set([...outcome.lifted, ...outcome.wider].map((b) => b.ip))];
  const added = [...new Set(outcome.wider.flatMap((b) => b.pieces))];
  if (ips.length + added.length > RELOAD_ABOVE) return [{ type: 'bans-reloaded' }];
  return [
    ...ips.map((ip): BusEvent => ({ type: 'bans-lifted', ip })),
    ...added.map((ip): BusEvent => ({ type: 'bans-added', ip })),
  ];
}
