import type { Db } from '../../storage/database.ts';

/**
 * The bouncer export's poll bookkeeping joined with the API keys it serves: the one place outside
 * storage/api-key-rows.ts that names `api_keys` in SQL (the rows are storage's; these joins read
 * them beside the export's own tables, bouncer_cursors, bouncer_hosts and key_delivery_state).
 */

const DELETE_REVOKED = {
  bouncer_cursors: 'DELETE FROM bouncer_cursors WHERE key_id NOT IN (SELECT id FROM api_keys)',
  bouncer_hosts: 'DELETE FROM bouncer_hosts WHERE key_id NOT IN (SELECT id FROM api_keys)',
} as const;

/** Deletes the rows of `table` whose key no longer exists (a revoked key never polls again). */
export function deleteRowsOfRevokedKeys(db: Db, table: keyof typeof DELETE_REVOKED): void {
  db.prepare(DELETE_REVOKED[table]).run();
}

/** A key on the export (it polled, or it is allowed on it) with its cursor's poll and refusal columns. */
export interface BouncerKeyRow {
  keyId: number;
  description: string;
  last_poll_at: number | null;
  last_poll_ip: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
  refused_at: number | null;
  refused_ip: string | null;
  refused_code: string | null;
  refused_reason: string | null;
  /** The key's cap now, the cap of its last answer, what that answer left out (JSON) and its last feed fetch. */
  entry_cap: number | null;
  state_cap: number | null;
  left_out: string | null;
  feed_at: number | null;
  /** Its last feed fetch (a fetch counts as its poll) and the interval its router was offered. */
  last_fetch_at: number | null;
  feed_interval_minutes: number | null;
}

/** Every key that has polled the export, plus keys allowed on it that never did, in key id order. */
export function bouncerKeyRows(db: Db): BouncerKeyRow[] {
  return db
    .prepare(
      `SELECT k.id AS keyId, k.description, c.last_poll_at, c.last_poll_ip, COALESCE(c.polls, 0) AS polls,
              COALESCE(c.last_new, 0) AS lastNew, COALESCE(c.last_deleted, 0) AS lastDeleted,
              c.refused_at, c.refused_ip, c.refused_code, c.refused_reason,
              k.entry_cap, s.cap AS state_cap, s.left_out, s.feed_at, c.last_fetch_at, k.feed_interval_minutes
         FROM api_keys k LEFT JOIN bouncer_cursors c ON c.key_id = k.id
         LEFT JOIN key_delivery_state s ON s.key_id = k.id
        WHERE c.key_id IS NOT NULL OR k.allowed_paths LIKE '%firewall-bouncer%'
        ORDER BY k.id`,
    )
    .all() as BouncerKeyRow[];
}

/** A key's row for delivery counting (export/delivery.ts): its grant, cap and what its stream and feed were last sent. */
export interface ReceivingKeyRow {
  keyId: number;
  description: string;
  keyExpiresAt: string | null;
  entryCap: number | null;
  streamVersion: number | null;
  feedVersion: number | null;
  stateCap: number | null;
  leftOutOwn: string | null;
}

/** Enabled keys granted on the export, or that polled or fetched it within `recentMs`. */
export function receivingKeyRows(db: Db, now: number, recentMs: number): ReceivingKeyRow[] {
  return db
    .prepare(
      `SELECT k.id AS keyId, k.description, k.expires_at AS keyExpiresAt, k.entry_cap AS entryCap,
              c.version AS streamVersion, s.feed_version AS feedVersion, s.cap AS stateCap, s.left_out_own AS leftOutOwn
         FROM api_keys k
         LEFT JOIN bouncer_cursors c ON c.key_id = k.id
         LEFT JOIN key_delivery_state s ON s.key_id = k.id
        WHERE k.disabled_at IS NULL
          AND (k.allowed_paths LIKE '%/firewall-bouncer%' OR c.expires_at > ? OR s.feed_at > ?)
        ORDER BY k.id`,
    )
    .all(now, now - recentMs) as ReceivingKeyRow[];
}
