import type ipaddr from 'ipaddr.js';
import type { Cidr } from '../../net/cidr.ts';
import type { Db } from '../../storage/database.ts';
import { BanStore, type BanRow } from './ban-store.ts';
import { BAN_CATEGORIES, type BanKind } from '../model/index.ts';
import type { BanLogEntry } from '../../../src-shared/ban-log.ts';
import type { ServiceCategory } from '../../../src-shared/categories.ts';

/** A ban as `firewall:getBannedIps` lists it. */
export interface BannedIp {
  /** An address, or a CIDR for a manual range ban. */
  ip: string;
  category: BanKind;
  reason?: string;
  bannedAt: string;
  expiresAt: string;
  /** Whole seconds left; null for a permanent manual ban. */
  secondsLeft: number | null;
  bannedBy: string;
  /** Manual bans: the services covered (null: all). */
  services: string[] | null;
  permanent: boolean;
  /** Automatic bans: the rank among this source's bans in its category (1 for the first; "3rd ban"). */
  banNumber: number;
  /** A Range ban that replaced this many single bans of its neighbourhood (neighbourhood escalation). */
  escalatedFrom?: number;
}

/** Manual bans "until lifted" end at this time: the largest date JavaScript can hold. */
export const PERMANENT_UNTIL = 8.64e15;

const services = (text: string | null) => (text ? (JSON.parse(text) as ServiceCategory[]) : null);

const ACTIVE = 'lifted_at IS NULL AND expires_at > ?';

function bannedIpOf(row: BanRow, now: number): BannedIp {
  const permanent = row.expires_at >= PERMANENT_UNTIL;
  return {
    ip: row.ip,
    category: row.category,
    ...(row.reason ? { reason: row.reason } : {}),
    bannedAt: new Date(row.banned_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    secondsLeft: permanent ? null : Math.max(1, Math.ceil((row.expires_at - now) / 1000)),
    bannedBy: row.banned_by,
    services: services(row.services),
    permanent,
    banNumber: row.ban_number,
    ...(row.escalated_from ? { escalatedFrom: row.escalated_from } : {}),
  };
}

/** Active bans, newest first (runs in workers). */
export function listActiveBans(db: Db, now: number): BannedIp[] {
  const rows = db
    .prepare(`SELECT * FROM firewall_bans WHERE ${ACTIVE} ORDER BY banned_at DESC, id DESC`)
    .all(now) as BanRow[];
  return rows.map((row) => bannedIpOf(row, now));
}

/** `%text%` for LIKE with `\` as the escape: the operator's `%` and `_` match themselves. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Text that can only be an address or its start: digits, `203.0.113`, `2001:db8:`, `10.0.0.0/2`. */
const ADDRESS_START = /^(?:\d+|[\d.]+|[\da-f.]*:[\da-f:.]*)(?:\/\d*)?$/i;

/**
 * The SQL condition of a list's search box. An address or its start matches the start of the
 * address column: an index range, a few ms at 100,000 bans (stored addresses are canonical, lower
 * case). Other text matches anywhere in the address or the text columns (a scan).
 */
export function searchCondition(search: string, address: string, text: string[]): { sql: string; params: string[] } {
  if (ADDRESS_START.test(search)) {
    // U+FFFF sorts after every character an address holds: [start, start + U+FFFF) is every address that starts so.
    const start = search.toLowerCase();
    return { sql: `(${address} >= ? AND ${address} < ?)`, params: [start, `${start}\uffff`] };
  }
  const like = containsPattern(search);
  const columns = [address, ...text];
  return { sql: `(${columns.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`, params: columns.map(() => like) };
}

/** Which active bans a page of the Bans screen shows: a search over address, reason and who banned, and a category. */
export interface ActiveBanFilter {
  search?: string;
  category?: BanKind;
}

function activeWhere(now: number, filter: ActiveBanFilter): { sql: string; params: unknown[] } {
  const parts = [ACTIVE];
  const params: unknown[] = [now];
  if (filter.search) {
    const search = searchCondition(filter.search, 'ip', ['reason', 'banned_by']);
    parts.push(search.sql);
    params.push(...search.params);
  }
  if (filter.category) {
    parts.push('category = ?');
    params.push(filter.category);
  }
  return { sql: parts.join(' AND '), params };
}

/** One page of the active bans that match, newest first, and how many match over every page (runs in workers). */
export function activeBansPage(
  db: Db,
  now: number,
  filter: ActiveBanFilter,
  page: { limit: number; offset: number },
): { bans: BannedIp[]; total: number } {
  const where = activeWhere(now, filter);
  const total = db
    .prepare(`SELECT COUNT(*) FROM firewall_bans WHERE ${where.sql}`)
    .pluck()
    .get(...where.params) as number;
  const rows = db
    .prepare(`SELECT * FROM firewall_bans WHERE ${where.sql} ORDER BY banned_at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...where.params, page.limit, page.offset) as BanRow[];
  return { bans: rows.map((row) => bannedIpOf(row, now)), total };
}

/** How many active bans match the search in each category, and when the newest of them started (runs in workers). */
export function activeBanCounts(
  db: Db,
  now: number,
  search?: string,
): { byCategory: Record<BanKind, number>; newestBannedAt: number | null } {
  const where = activeWhere(now, { search });
  const rows = db
    .prepare(
      `SELECT category, COUNT(*) AS n, MAX(banned_at) AS newest FROM firewall_bans WHERE ${where.sql} GROUP BY category`,
    )
    .all(...where.params) as Array<{ category: string; n: number; newest: number }>;
  const byCategory: Record<BanKind, number> = { sip: 0, http: 0, ami: 0, iax: 0, manual: 0 };
  let newestBannedAt: number | null = null;
  for (const row of rows) {
    if (row.category in byCategory) byCategory[row.category as BanKind] = row.n;
    newestBannedAt = Math.max(newestBannedAt ?? 0, row.newest);
  }
  return { byCategory, newestBannedAt };
}

/**
 * Lifts every ban of `value` (an address, or a manual ban's CIDR) in force at `now`, all categories.
 * Bans that already expired keep their history ("expired", nobody lifted them). Returns how many were lifted.
 */
export function liftBans(db: Db, value: string, now: number, by: string): number {
  return BanStore.liftInForce(db, value, now, by);
}

/** What the operator asked for with `firewall:banIp`. */
export interface ManualBan {
  value: string;
  /** Seconds, or null for "until lifted". */
  seconds: number | null;
  reason: string;
  services: string[] | null;
  by: string;
}

/**
 * Records a manual ban; an active manual ban of the same value is replaced (its row ends, lifted by
 * the new one), so the history shows both. Returns the new row's id.
 */
export function addManualBan(db: Db, ban: ManualBan, now: number): number {
  return db.transaction(() => {
    BanStore.endManual(db, ban.value, now, `${ban.by} (replaced)`);
    return BanStore.insertManual(db, ban, now, ban.seconds === null ? PERMANENT_UNTIL : now + ban.seconds * 1000);
  })();
}

export type HistoryPoint = { t: string } & Record<BanKind, number>;

/**
 * Bans that started in each minute, per category, over the last `minutes` minutes, oldest first:
 * one point per minute, for the console's chart. Counting starts (not bans in force at one
 * instant) keeps a ban lifted within seconds visible.
 */
export function banHistory(db: Db, now: number, minutes: number): HistoryPoint[] {
  const minute = 60_000;
  const current = Math.floor(now / minute) * minute;
  const start = current - (minutes - 1) * minute;
  const rows = db
    .prepare('SELECT category, banned_at FROM firewall_bans WHERE banned_at >= ? AND banned_at <= ?')
    .all(start, now) as Array<{ category: string; banned_at: number }>;
  const points: HistoryPoint[] = [];
  for (let t = start; t <= current; t += minute)
    points.push({ t: new Date(t).toISOString(), sip: 0, http: 0, ami: 0, iax: 0, manual: 0 });
  for (const row of rows) {
    const point = points[Math.floor((row.banned_at - start) / minute)];
    if (point && ([...BAN_CATEGORIES, 'manual'] as string[]).includes(row.category)) point[row.category as BanKind]++;
  }
  return points;
}

export interface BanLogQuery {
  /** Part of the address or of the reason. */
  search?: string;
  category?: BanKind;
  state?: BanLogEntry['state'];
  limit: number;
  offset: number;
}

/** The ban history, newest first, filtered and paginated (runs in workers). */
export function banLog(db: Db, now: number, query: BanLogQuery): { rows: BanLogEntry[]; total: number } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.search) {
    where.push("(ip LIKE ? ESCAPE '\\' OR reason LIKE ? ESCAPE '\\')");
    const like = containsPattern(query.search);
    params.push(like, like);
  }
  if (query.category) {
    where.push('category = ?');
    params.push(query.category);
  }
  if (query.state === 'active') where.push(`lifted_at IS NULL AND expires_at > ${Number(now)}`);
  if (query.state === 'expired') where.push(`lifted_at IS NULL AND expires_at <= ${Number(now)}`);
  if (query.state === 'lifted') where.push('lifted_at IS NOT NULL');
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM firewall_bans ${clause}`).get(...params) as { n: number }).n;
  const rows = db
    .prepare(`SELECT * FROM firewall_bans ${clause} ORDER BY banned_at DESC, id DESC LIMIT ? OFFSET ?`)
    .all(...params, query.limit, query.offset) as BanRow[];
  return {
    total,
    rows: rows.map((row) => {
      const state = row.lifted_at !== null ? 'lifted' : row.expires_at > now ? 'active' : 'expired';
      const end = row.lifted_at ?? (row.expires_at >= PERMANENT_UNTIL ? null : row.expires_at);
      return {
        id: row.id,
        ip: row.ip,
        category: row.category,
        scenario: `pbx/${row.category}`,
        reason: row.reason,
        services: services(row.services),
        bannedAt: new Date(row.banned_at).toISOString(),
        bannedBy: row.banned_by,
        endsAt: end === null ? null : new Date(end).toISOString(),
        state,
        liftedBy: row.lifted_by,
        banNumber: row.ban_number,
      };
    }),
  };
}

/** general-settings `banHistoryRetentionDays` when unset. */
export const DEFAULT_BAN_HISTORY_DAYS = 90;

/** Drops history rows that ended more than `days` ago (bans in force never). Returns how many. */
export function pruneBanHistory(db: Db, now: number, days: number): number {
  return BanStore.pruneHistory(db, now - days * 86_400_000);
}

/** Durations an operator may give a manual ban: a minute up to ten years, or "permanent". */
export const MANUAL_BAN_BOUNDS = { minSeconds: 60, maxSeconds: 10 * 365 * 86_400 } as const;

/** Parses `90`, `"90s"`, `"15m"`, `"2h"`, `"7d"`, `"1w"` or `"permanent"` into seconds (null: permanent). */
export function parseBanDuration(
  value: unknown,
): { ok: true; seconds: number | null } | { ok: false; message: string } {
  if (value === 'permanent' || value === null) return { ok: true, seconds: null };
  let seconds: number | undefined;
  if (typeof value === 'number' && Number.isInteger(value)) seconds = value;
  if (typeof value === 'string') {
    const match = /^\s*(\d{1,10})\s*(s|m|h|d|w)?\s*$/i.exec(value);
    const unit = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 }[(match?.[2] ?? 's').toLowerCase() as 's'];
    if (match) seconds = Number(match[1]) * unit;
  }
  if (seconds === undefined)
    return { ok: false, message: 'duration: give seconds, a number with a unit (30m, 12h, 7d, 2w) or "permanent".' };
  if (seconds < MANUAL_BAN_BOUNDS.minSeconds || seconds > MANUAL_BAN_BOUNDS.maxSeconds) {
    return {
      ok: false,
      message: `duration: must be from 1 minute (60 s) to 10 years (${MANUAL_BAN_BOUNDS.maxSeconds} s), or "permanent"; got ${seconds} s.`,
    };
  }
  return { ok: true, seconds };
}

/** A function giving the categories of the bans in force on an address at a time (prepared once, asked per address). */
export function activeCategoriesOf(db: Db): (ip: string, now: number) => string[] {
  const categories = db
    .prepare('SELECT category FROM firewall_bans WHERE ip = ? AND lifted_at IS NULL AND expires_at > ?')
    .pluck();
  return (ip, now) => categories.all(ip, now) as string[];
}

/**
 * The bans in force at `now` that may hold `address`: its own, and every range ban (the caller
 * keeps those whose range holds it), newest first.
 */
export function activeBansThatMayHold(
  db: Db,
  address: string,
  now: number,
): Array<Pick<BanRow, 'category' | 'ip' | 'reason' | 'banned_at' | 'expires_at' | 'banned_by'>> {
  return db
    .prepare(
      `SELECT category, ip, reason, banned_at, expires_at, banned_by FROM firewall_bans
        WHERE lifted_at IS NULL AND expires_at > ? AND (ip = ? OR ip LIKE '%/%') ORDER BY banned_at DESC`,
    )
    .all(now, address) as Array<Pick<BanRow, 'category' | 'ip' | 'reason' | 'banned_at' | 'expires_at' | 'banned_by'>>;
}

/** Per value in force at `now`: the latest end of its manual bans (manual 1) and of its other bans (manual 0). */
export function latestEndsInForce(db: Db, now: number): Array<{ ip: string; manual: 0 | 1; expires_at: number }> {
  return db
    .prepare(
      "SELECT ip, category = 'manual' AS manual, MAX(expires_at) AS expires_at FROM firewall_bans WHERE " +
        'lifted_at IS NULL AND expires_at > ? GROUP BY ip, manual',
    )
    .all(now) as Array<{ ip: string; manual: 0 | 1; expires_at: number }>;
}

/**
 * A SQL condition that keeps every ban that may lie inside or overlap one of `ranges`, so a save
 * parses only those (100,000 bans in force would otherwise cost a second inside the write
 * transaction): range bans always (few, and a wider one is reported), IPv4 addresses by their fixed
 * leading octets (`10.20.%` for a /16), IPv6 addresses all (their compressed text has no fixed prefix).
 */
function candidates(ranges: ReadonlyArray<{ cidr: Cidr }>): { sql: string; params: string[] } {
  const conditions = new Map<string, { sql: string; param?: string }>([['range', { sql: "ip LIKE '%/%'" }]]);
  for (const { cidr } of ranges) {
    const fixed = Math.floor(cidr[1] / 8);
    if (cidr[0].kind() === 'ipv6') conditions.set('ipv6', { sql: "ip LIKE '%:%'" });
    else if (fixed === 0) conditions.set('ipv4', { sql: "ip NOT LIKE '%:%'" });
    else {
      const octets = (cidr[0] as ipaddr.IPv4).octets.slice(0, fixed).join('.');
      const condition = fixed === 4 ? { sql: 'ip = ?', param: octets } : { sql: 'ip LIKE ?', param: `${octets}.%` };
      conditions.set(`${condition.sql} ${condition.param}`, condition);
    }
  }
  const list = [...conditions.values()];
  return {
    sql: list.map((c) => c.sql).join(' OR '),
    params: list.flatMap((c) => (c.param === undefined ? [] : [c.param])),
  };
}

/** The bans in force at `now` that may lie inside or overlap one of `ranges` (see candidates). */
export function activeBansNear(
  db: Db,
  ranges: ReadonlyArray<{ cidr: Cidr }>,
  now: number,
): Array<Pick<BanRow, 'id' | 'category' | 'ip'>> {
  const filter = candidates(ranges);
  return db
    .prepare(
      `SELECT id, category, ip FROM firewall_bans WHERE lifted_at IS NULL AND expires_at > ? AND (${filter.sql})`,
    )
    .all(now, ...filter.params) as Array<Pick<BanRow, 'id' | 'category' | 'ip'>>;
}

/** A ban that has ended, as the lookup's history shows it. */
export type EndedBan = Pick<
  BanRow,
  'category' | 'ip' | 'reason' | 'banned_at' | 'expires_at' | 'banned_by' | 'lifted_at' | 'lifted_by'
>;

const ENDED_COLUMNS = 'category, ip, reason, banned_at, expires_at, banned_by, lifted_at, lifted_by';
const ENDED = '(lifted_at IS NOT NULL OR expires_at <= ?)';
const NEWEST_END_FIRST = 'ORDER BY COALESCE(lifted_at, expires_at) DESC LIMIT ?';

/**
 * The ended bans of `address` itself (the ip index), then the ended range bans that may hold it
 * (the caller keeps those that do), each newest end first and at most `limit`. An IPv4 address's
 * ranges are read by the ip index too: a range holding a.b.c.d starts with the first octet of its
 * network, one of at most 8 values (prefixes /1 to /8 and longer); IPv6 ranges are scanned.
 */
export function endedBansThatMayHold(db: Db, address: string, now: number, limit: number): EndedBan[] {
  const own = db
    .prepare(`SELECT ${ENDED_COLUMNS} FROM firewall_bans WHERE ip = ? AND ${ENDED} ${NEWEST_END_FIRST}`)
    .all(address, now, limit) as EndedBan[];
  const first = /^(\d{1,3})\./.exec(address)?.[1];
  if (first === undefined) {
    const ranges = db
      .prepare(`SELECT ${ENDED_COLUMNS} FROM firewall_bans WHERE ip LIKE '%:%/%' AND ${ENDED} ${NEWEST_END_FIRST}`)
      .all(now, limit) as EndedBan[];
    return [...own, ...ranges];
  }
  const octet = Number(first);
  // "o." up to (not including) "o/": every value whose first octet is o ('/' follows '.').
  const octets = [...new Set([0, 1, 2, 3, 4, 5, 6, 7].map((bits) => octet & (0xff << bits) & 0xff))];
  const where = octets.map(() => '(ip >= ? AND ip < ?)').join(' OR ');
  const ranges = db
    .prepare(
      `SELECT ${ENDED_COLUMNS} FROM firewall_bans WHERE (${where}) AND ip LIKE '%/%' AND ${ENDED} ${NEWEST_END_FIRST}`,
    )
    .all(...octets.flatMap((o) => [`${o}.`, `${o}/`]), now, limit) as EndedBan[];
  return [...own, ...ranges];
}

/** A ban in force as a share upstream needs it. */
export type InForceBan = Pick<BanRow, 'ip' | 'category' | 'reason' | 'expires_at'>;

/** Every ban in force of `kinds` (the CrowdSec link's shared kinds), oldest first. */
export function activeBansOfKinds(db: Db, now: number, kinds: readonly BanKind[]): InForceBan[] {
  if (kinds.length === 0) return [];
  return db
    .prepare(
      `SELECT ip, category, reason, expires_at FROM firewall_bans WHERE ${ACTIVE}
        AND category IN (SELECT value FROM json_each(?)) ORDER BY banned_at, id`,
    )
    .all(now, JSON.stringify(kinds)) as InForceBan[];
}
