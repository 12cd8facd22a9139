import type { Db } from '../../storage/database.ts';
import { apiKeyIds } from '../../storage/api-key-rows.ts';
import type { FeedCursors } from '../feeds/index.ts';

/** Records an operator's resync of a key (api-keys/{id}:resync, in a worker); the web thread applies it. */
export function requestResync(db: Db, keyId: number, at: number): void {
  db.prepare(
    `INSERT INTO api_key_resyncs (key_id, requested_at) VALUES (?, ?)
     ON CONFLICT(key_id) DO UPDATE SET requested_at = excluded.requested_at`,
  ).run(keyId, at);
}

/**
 * Applies operators' resync requests (api-keys/{id}:resync, written by a worker) on the web
 * thread: a key whose request is newer than the last one applied loses its feed cursors, so its
 * next MikroTik fetch is a full list. The stream needs nothing more: every poll carries the whole
 * set in `new` (SPEC rule 1). At start-up the cursors are empty anyway, so old requests are only noted.
 * Run on every change of the keys, it also drops what was sent to deleted keys.
 */
export function keyResyncs(db: Db, feedCursors: FeedCursors): { apply(): void } {
  const read = db.prepare('SELECT key_id AS keyId, requested_at AS at FROM api_key_resyncs');
  const applied = new Map<number, number>();
  for (const { keyId, at } of read.all() as Array<{ keyId: number; at: number }>) applied.set(keyId, at);
  return {
    apply() {
      for (const { keyId, at } of read.all() as Array<{ keyId: number; at: number }>) {
        if (applied.get(keyId) === at) continue;
        applied.set(keyId, at);
        feedCursors.forgetKey(keyId);
      }
      feedCursors.keepOnly(new Set(apiKeyIds(db)));
    },
  };
}
