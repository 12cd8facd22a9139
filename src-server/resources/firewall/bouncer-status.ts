import type { BouncerHostRow } from '../../firewall/bouncer-hosts.ts';
import type { Db } from '../../storage/database.ts';

/** One source address a key polled from (the LAPI's `name@ip`), with what it reports of itself. */
export interface BouncerHostStatus {
  ip: string;
  firstSeen: string;
  lastSeen: string;
  polls: number;
  userAgent: string;
  type: string | null;
  name: string | null;
  version: string | null;
  os: string | null;
  /** What it reports it dropped, per origin and unit, e.g. {"pbx-networkfilters": {"packet": 12}}. */
  dropped: Record<string, Record<string, number>>;
  metricsAt: string | null;
}

/** Per API key: the cursor's last poll and the hosts that used the key. */
export interface BouncerStatus {
  keyId: number;
  description: string;
  lastPollAt: string | null;
  lastPollIp: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
  hosts: BouncerHostStatus[];
  /** Refusals from this key's hosts, or of this key from elsewhere: why a bouncer of this key may be locked out. */
  refused: BouncerRejection[];
}

/** A source refused on the export: why, how often, and whether a ban still locks it out. */
export interface BouncerRejection {
  ip: string;
  keyId: number | null;
  reason: string;
  firstAt: string;
  lastAt: string;
  count: number;
  clearedAt: string | null;
  /** An intrusion ban in force on this address (lift it with firewall:unbanIp). */
  banned: boolean;
  bannedCategories: string[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * `firewall:getBouncerStatus`: every key that has polled the export, plus keys allowed on it that
 * never did (lastPollAt null), in key id order, each with its hosts; and the sources refused on
 * the export in the last week that have not since been served, newest first.
 */
export function bouncerStatus(db: Db, now: number): { bouncers: BouncerStatus[]; rejections: BouncerRejection[] } {
  const keys = db
    .prepare(
      `SELECT k.id AS keyId, k.description, c.last_poll_at, c.last_poll_ip, COALESCE(c.polls, 0) AS polls,
              COALESCE(c.last_new, 0) AS lastNew, COALESCE(c.last_deleted, 0) AS lastDeleted
         FROM api_keys k LEFT JOIN bouncer_cursors c ON c.key_id = k.id
        WHERE c.key_id IS NOT NULL OR k.allowed_paths LIKE '%firewall-bouncer%'
        ORDER BY k.id`,
    )
    .all() as Array<{ keyId: number; description: string; last_poll_at: number | null; last_poll_ip: string | null; polls: number; lastNew: number; lastDeleted: number }>;
  const hostRows = db.prepare('SELECT * FROM bouncer_hosts ORDER BY last_seen DESC').all() as BouncerHostRow[];
  const hostsByKey = new Map<number, BouncerHostStatus[]>();
  for (const row of hostRows) {
    let report: Partial<BouncerHostStatus> = {};
    try {
      report = row.metrics ? (JSON.parse(row.metrics) as Partial<BouncerHostStatus>) : {};
    } catch {
      // An unreadable report shows as none.
    }
    const list = hostsByKey.get(row.key_id) ?? [];
    list.push({
      ip: row.ip,
      firstSeen: iso(row.first_seen)!,
      lastSeen: iso(row.last_seen)!,
      polls: row.polls,
      userAgent: row.user_agent,
      type: report.type ?? null,
      name: report.name ?? null,
      version: report.version ?? null,
      os: report.os ?? null,
      dropped: report.dropped ?? {},
      metricsAt: iso(row.metrics_at),
    });
    hostsByKey.set(row.key_id, list);
  }
  const bannedCategories = db.prepare('SELECT category FROM firewall_bans WHERE ip = ? AND lifted_at IS NULL AND expires_at > ?').pluck();
  const rejections = (
    db.prepare('SELECT * FROM bouncer_rejections WHERE cleared_at IS NULL ORDER BY last_at DESC LIMIT 100').all() as Array<{
      ip: string;
      key_id: number | null;
      reason: string;
      first_at: number;
      last_at: number;
      count: number;
      cleared_at: number | null;
    }>
  ).map((row) => {
    const categories = bannedCategories.all(row.ip, now) as string[];
    return {
      ip: row.ip,
      keyId: row.key_id,
      reason: row.reason,
      firstAt: iso(row.first_at)!,
      lastAt: iso(row.last_at)!,
      count: row.count,
      clearedAt: iso(row.cleared_at),
      banned: categories.length > 0,
      bannedCategories: categories,
    };
  });
  return {
    bouncers: keys.map((row) => {
      const hosts = hostsByKey.get(row.keyId) ?? [];
      const ips = new Set([...hosts.map((h) => h.ip), row.last_poll_ip]);
      return {
        keyId: row.keyId,
        description: row.description,
        lastPollAt: iso(row.last_poll_at),
        lastPollIp: row.last_poll_ip,
        polls: row.polls,
        lastNew: row.lastNew,
        lastDeleted: row.lastDeleted,
        hosts,
        refused: rejections.filter((r) => r.keyId === row.keyId || ips.has(r.ip)),
      };
    }),
    rejections,
  };
}
