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

/**
 * Bans in force per category at the end of each minute over the last `minutes` minutes (the
 * current minute is measured now), oldest first: one point per minute, for the console's chart.
 */
export function banHistory(db: Db, now: number, minutes: number): HistoryPoint[] {
  const minute = 60_000;
  const current = Math.floor(now / minute) * minute;
  const start = current - (minutes - 1) * minute;
  const rows = db
    .prepare(
      `SELECT category, banned_at, expires_at, lifted_at FROM firewall_bans
        WHERE banned_at <= ? AND expires_at > ? AND (lifted_at IS NULL OR lifted_at > ?)`,
    )
    .all(now, start, start) as Array<{ category: string; banned_at: number; expires_at: number; lifted_at: number | null }>;
  const points: HistoryPoint[] = [];
  for (let t = start; t <= current; t += minute) {
    const at = Math.min(t + minute - 1, now);
    const point: HistoryPoint = { t: new Date(t).toISOString(), sip: 0, http: 0, ami: 0, iax: 0 };
    for (const row of rows) {
      if (row.banned_at > at || row.expires_at <= at || (row.lifted_at !== null && row.lifted_at <= at)) continue;
      if ((BAN_CATEGORIES as readonly string[]).includes(row.category)) point[row.category as BanCategory]++;
    }
    points.push(point);
  }
  return points;
}
