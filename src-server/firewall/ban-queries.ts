import type { Db } from '../storage/database.ts';
import { BAN_CATEGORIES, type BanCategory } from './decisions.ts';

/** A ban as `firewall:getBannedIps` lists it. */
export interface BannedIp {
  ip: string;
  category: BanCategory;
  reason?: string;
  bannedAt: string;
  expiresAt: string;
  secondsLeft: number;
}

/** Active bans, newest first (runs in workers). */
export function listActiveBans(db: Db, now: number): BannedIp[] {
  const rows = db
    .prepare(
      'SELECT category, ip, reason, banned_at, expires_at FROM firewall_bans WHERE lifted_at IS NULL AND expires_at > ? ORDER BY banned_at DESC, id DESC',
    )
    .all(now) as Array<{ category: BanCategory; ip: string; reason: string; banned_at: number; expires_at: number }>;
  return rows.map((row) => ({
    ip: row.ip,
    category: row.category,
    ...(row.reason ? { reason: row.reason } : {}),
    bannedAt: new Date(row.banned_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    secondsLeft: Math.max(1, Math.ceil((row.expires_at - now) / 1000)),
  }));
}

/** Lifts every active ban of `ip`, all categories. Returns how many were lifted. */
export function liftBans(db: Db, ip: string, now: number): number {
  // No expiry condition: the worker's clock may differ from the web thread's, and lifting an expired row is harmless.
  return db.prepare('UPDATE firewall_bans SET lifted_at = ? WHERE ip = ? AND lifted_at IS NULL').run(now, ip).changes;
}

export type HistoryPoint = { t: string } & Record<BanCategory, number>;

/** Bans started per minute and category over the last `minutes` minutes, oldest first, one point per minute. */
export function banHistory(db: Db, now: number, minutes: number): HistoryPoint[] {
  const minute = 60_000;
  const end = Math.floor(now / minute) * minute;
  const start = end - (minutes - 1) * minute;
  const rows = db
    .prepare('SELECT (banned_at / 60000) * 60000 AS t, category, COUNT(*) AS n FROM firewall_bans WHERE banned_at >= ? GROUP BY 1, 2')
    .all(start) as Array<{ t: number; category: string; n: number }>;
  const points = new Map<number, HistoryPoint>();
  for (let t = start; t <= end; t += minute) {
    points.set(t, { t: new Date(t).toISOString(), sip: 0, http: 0, ami: 0, iax: 0 });
  }
  for (const row of rows) {
    const point = points.get(row.t);
    if (point && (BAN_CATEGORIES as readonly string[]).includes(row.category)) point[row.category as BanCategory] += row.n;
  }
  return [...points.values()];
}
