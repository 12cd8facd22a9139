import type { Clock } from '../clock.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';

/** SPEC: a cursor lives 1 hour, renewed by each poll. */
export const CURSOR_TTL_MS = 60 * 60 * 1000;

/** One API key's cursor and poll statistics. */
export interface CursorRecord {
  keyId: number;
  /** Decision-log version last served; null when never served. */
  version: number | null;
  expiresAt: number | null;
  lastPollAt: number | null;
  lastPollIp: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
}

interface CursorRow {
  key_id: number;
  version: number | null;
  expires_at: number | null;
  last_poll_at: number | null;
  last_poll_ip: string | null;
  polls: number;
  last_new: number;
  last_deleted: number;
}

/**
 * Per-key cursors, kept in memory and in SQLite. A poll that moves the cursor to a new version is
 * written through at once: a stored cursor older than what the key was really served could miss
 * the removal of a decision added in between, so even a crash must not lose it. A poll that only
 * renews the lifetime and the statistics is written in the next batch (at most a second later),
 * so steady polling costs no disk write.
 */
export class CursorStore {
  private readonly cursors = new Map<number, CursorRecord>();
  private readonly dirty = new Set<number>();
  private readonly save;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** A write-through that failed (the database locked): the cursor stays pending for the next flush. */
    private readonly onWriteError: (error: unknown) => void = () => {},
  ) {
    for (const row of db.prepare('SELECT * FROM bouncer_cursors').all() as CursorRow[]) {
      this.cursors.set(row.key_id, {
        keyId: row.key_id,
        version: row.version,
        expiresAt: row.expires_at,
        lastPollAt: row.last_poll_at,
        lastPollIp: row.last_poll_ip,
        polls: row.polls,
        lastNew: row.last_new,
        lastDeleted: row.last_deleted,
      });
    }
    this.save = db.prepare(
      `INSERT INTO bouncer_cursors (key_id, version, expires_at, last_poll_at, last_poll_ip, polls, last_new, last_deleted)
       VALUES (@keyId, @version, @expiresAt, @lastPollAt, @lastPollIp, @polls, @lastNew, @lastDeleted)
       ON CONFLICT(key_id) DO UPDATE SET version = excluded.version, expires_at = excluded.expires_at,
         last_poll_at = excluded.last_poll_at, last_poll_ip = excluded.last_poll_ip, polls = excluded.polls,
         last_new = excluded.last_new, last_deleted = excluded.last_deleted`,
    );
  }

  /**
   * The version a key was last served, expired or not: after 1 h of silence a cursor no longer
   * holds the decision log back, but a returning bouncer is still diffed against where it was, as
   * far as the log's kept history reaches (DecisionLog.removedSince).
   */
  servedVersion(keyId: number): number | undefined {
    return this.cursors.get(keyId)?.version ?? undefined;
  }

  /** Stores what a poll served and renews the cursor's lifetime. Called only once the whole answer was written. */
  record(keyId: number, version: number, ip: string, newCount: number, deletedCount: number): void {
    const now = this.clock.now();
    const previous = this.cursors.get(keyId);
    const cursor: CursorRecord = {
      keyId,
      version,
      expiresAt: now + CURSOR_TTL_MS,
      lastPollAt: now,
      lastPollIp: ip,
      polls: (previous?.polls ?? 0) + 1,
      lastNew: newCount,
      lastDeleted: deletedCount,
    };
    this.cursors.set(keyId, cursor);
    if (previous?.version === version) {
      this.dirty.add(keyId);
    } else {
      // Pending until written: this runs after the answer was sent, where a throw would end the process.
      this.dirty.add(keyId);
      if (tryBackgroundWrite(this.db, () => this.save.run(cursor), this.onWriteError)) this.dirty.delete(keyId);
    }
  }

  /** Writes the renewals and statistics batched since the last flush, in one transaction; throws (keeping them) when it cannot. */
  flush(): void {
    if (this.dirty.size === 0) return;
    const keys = [...this.dirty];
    this.db.transaction(() => {
      for (const keyId of keys) {
        const cursor = this.cursors.get(keyId);
        if (cursor) this.save.run(cursor);
      }
    })();
    // Only once committed: a failed flush (SQLITE_BUSY) keeps every renewal for the next one.
    for (const keyId of keys) this.dirty.delete(keyId);
  }

  /** Drops the cursors of keys that no longer exist (revoked keys never poll again). */
  forgetRevokedKeys(): void {
    this.flush();
    const existing = new Set(this.db.prepare('SELECT id FROM api_keys').pluck().all() as number[]);
    for (const keyId of this.cursors.keys()) if (!existing.has(keyId)) this.cursors.delete(keyId);
    this.db.prepare('DELETE FROM bouncer_cursors WHERE key_id NOT IN (SELECT id FROM api_keys)').run();
  }

  /** The oldest version any live cursor holds, or undefined when no cursor is live. */
  oldestLiveVersion(): number | undefined {
    const now = this.clock.now();
    let oldest: number | undefined;
    for (const cursor of this.cursors.values()) {
      if (cursor.version === null || cursor.expiresAt === null || cursor.expiresAt <= now) continue;
      if (oldest === undefined || cursor.version < oldest) oldest = cursor.version;
    }
    return oldest;
  }

  get size(): number {
    return this.cursors.size;
  }
}
