import type { Db } from '../../storage/database.ts';

/** One row of `firewall:getBouncerStatus`. */
export interface BouncerStatus {
  keyId: number;
  description: string;
  lastPollAt: string | null;
  lastPollIp: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
}

/**
 * Bouncer health per API key: every key that has polled the export, plus keys allowed on it that
 * never did (lastPollAt null), in key id order.
 */
export function bouncerStatus(db: Db): BouncerStatus[] {
  const rows = db
    .prepare(
      `SELECT k.id AS keyId, k.description, c.last_poll_at, c.last_poll_ip, COALESCE(c.polls, 0) AS polls,
              COALESCE(c.last_new, 0) AS lastNew, COALESCE(c.last_deleted, 0) AS lastDeleted
         FROM api_keys k LEFT JOIN bouncer_cursors c ON c.key_id = k.id
        WHERE c.key_id IS NOT NULL OR k.allowed_paths LIKE '%firewall-bouncer%'
        ORDER BY k.id`,
    )
    .all() as Array<{ keyId: number; description: string; last_poll_at: number | null; last_poll_ip: string | null; polls: number; lastNew: number; lastDeleted: number }>;
  return rows.map((row) => ({
    keyId: row.keyId,
    description: row.description,
    lastPollAt: row.last_poll_at === null ? null : new Date(row.last_poll_at).toISOString(),
    lastPollIp: row.last_poll_ip,
    polls: row.polls,
    lastNew: row.lastNew,
    lastDeleted: row.lastDeleted,
  }));
}
