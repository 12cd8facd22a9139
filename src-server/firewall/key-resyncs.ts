import type { Db } from '../storage/database.ts';
import type { FeedCursors } from './blocklist-deltas.ts';

/**
 * Applies operators' resync requests (api-keys/{id}:resync, written by a worker) on the web
 * thread: a key whose request is newer than the last one applied loses its feed cursors, so its
 * next MikroTik fetch is a full list. The stream needs nothing more: every poll carries the whole
 * set in `new` (SPEC rule 1). At start-up the cursors are empty anyway, so old requests are only noted.
 * Run on every change of the keys, it also drops what was sent to deleted keys.
 */
export function keyResyncs(db: Db, feedCursors: FeedCursors): { apply(): void } {
  const read = db.prepare('SELECT key_id AS keyId, requested_at AS at FROM api_key_resyncs');
  const existing = db.prepare('SELECT id FROM api_keys').pluck();
  const applied = new Map<number, number>();
  for (const { keyId, at } of read.all() as Array<{ keyId: number; at: number }>) applied.set(keyId, at);
  return {
    apply() {
      for (const { keyId, at } of read.all() as Array<{ keyId: number; at: number }>) {
        if (applied.get(keyId) === at) continue;
        applied.set(keyId, at);
        feedCursors.forgetKey(keyId);
      }
      feedCursors.keepOnly(new Set(existing.all() as number[]));
    },
  };
}
