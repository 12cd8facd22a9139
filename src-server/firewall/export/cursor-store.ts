import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import { BACKGROUND_BUSY_WAIT_MS, isSqliteBusy, writeWithShortWait } from '../../storage/background-write.ts';
import type { Db } from '../../storage/database.ts';
import { apiKeyIds } from '../../storage/api-key-rows.ts';
import { deleteRowsOfRevokedKeys } from './bouncer-keys.ts';

/** SPEC: a cursor lives 1 hour, renewed by each poll. */
export const CURSOR_TTL_MS = 60 * 60 * 1000;

/**
 * Each deletion is carried by this many of a key's answers (docs/firewall.md "Cursors and
 * deletions"). HTTP/1.1 has no acknowledgement: an answer the kernel took may never be read. Five
 * covers a cut answer plus two failed polls in a row with two to spare, and `kill -9` at any
 * moment (a window lost in a crash is an older one, so deletions are only repeated more).
 */
export const REPEAT_POLLS = 5;

/** Why a known key's poll was refused (the auth layer's KeyRefusalCode). */
export type RefusalCode = 'disabled' | 'expired' | 'wrong-source' | 'not-allowed';

export interface Refusal {
  at: number;
  ip: string;
  code: RefusalCode;
  reason: string;
}

/** One API key's delivery window and poll statistics. */
export interface CursorRecord {
  keyId: number;
  /** Decision-log versions of the key's last REPEAT_POLLS answers, oldest first; empty when never served. */
  sent: number[];
  expiresAt: number | null;
  lastPollAt: number | null;
  lastPollIp: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
  refusal: Refusal | null;
  /** The last router-feed fetch (also counted as a poll above): the key is a feed when this is its last poll. */
  lastFetchAt: number | null;
}

interface CursorRow {
  key_id: number;
  version: number | null;
  sent_versions: string;
  expires_at: number | null;
  last_poll_at: number | null;
  last_poll_ip: string | null;
  polls: number;
  last_new: number;
  last_deleted: number;
  refused_at: number | null;
  refused_ip: string | null;
  refused_code: RefusalCode | null;
  refused_reason: string | null;
  last_fetch_at: number | null;
}

/** A stored window, whatever state it is in: anything unreadable is no window (the next poll's `deleted` is then every kept removal). */
function parseSent(text: string, version: number | null): number[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed) && parsed.every((v) => Number.isSafeInteger(v)))
      return (parsed as number[]).slice(-REPEAT_POLLS);
  } catch {
    // fall through
  }
  return version === null ? [] : [version];
}

/**
 * Per-key delivery windows, kept in memory and in SQLite. What an answer carries is recorded
 * before its first byte is sent: an answer with a version new to the key is written through at
 * once, a renewal (same version) in the next batch. Nothing here can lose a deletion: a window
 * that failed to reach the disk is an older one, and an older window only lists more in `deleted`.
 */
export class CursorStore {
  private readonly cursors = new Map<number, CursorRecord>();
  private readonly dirty = new Set<number>();
  private readonly save;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {
    for (const row of db.prepare('SELECT * FROM bouncer_cursors').all() as CursorRow[]) {
      this.cursors.set(row.key_id, {
        keyId: row.key_id,
        sent: parseSent(row.sent_versions, row.version),
        expiresAt: row.expires_at,
        lastPollAt: row.last_poll_at,
        lastPollIp: row.last_poll_ip,
        polls: row.polls,
        lastNew: row.last_new,
        lastDeleted: row.last_deleted,
        refusal:
          row.refused_at !== null && row.refused_code !== null
            ? { at: row.refused_at, ip: row.refused_ip ?? '', code: row.refused_code, reason: row.refused_reason ?? '' }
            : null,
        lastFetchAt: row.last_fetch_at,
      });
    }
    this.save = db.prepare(
      `INSERT INTO bouncer_cursors (key_id, version, sent_versions, expires_at, last_poll_at, last_poll_ip, polls, last_new, last_deleted,
         refused_at, refused_ip, refused_code, refused_reason, last_fetch_at)
       VALUES (@keyId, @version, @sentVersions, @expiresAt, @lastPollAt, @lastPollIp, @polls, @lastNew, @lastDeleted,
         @refusedAt, @refusedIp, @refusedCode, @refusedReason, @lastFetchAt)
       ON CONFLICT(key_id) DO UPDATE SET version = excluded.version, sent_versions = excluded.sent_versions,
         expires_at = excluded.expires_at, last_poll_at = excluded.last_poll_at, last_poll_ip = excluded.last_poll_ip,
         polls = excluded.polls, last_new = excluded.last_new, last_deleted = excluded.last_deleted,
         refused_at = excluded.refused_at, refused_ip = excluded.refused_ip, refused_code = excluded.refused_code,
         refused_reason = excluded.refused_reason, last_fetch_at = excluded.last_fetch_at`,
    );
  }

  /**
   * The version a key's `deleted` is computed from: the oldest of its last REPEAT_POLLS answers,
   * expired or not (after 1 h of silence a cursor no longer holds the log back, but a returning
   * bouncer is still diffed against where it was, as far as the log's kept history reaches).
   */
  deletedSince(keyId: number): number | undefined {
    return this.cursors.get(keyId)?.sent[0];
  }

  /** The newest version a key was sent (what it holds if it read its last answer). */
  servedVersion(keyId: number): number | undefined {
    const sent = this.cursors.get(keyId)?.sent;
    return sent?.[sent.length - 1];
  }

  /** A key's record, for status reads and tests. */
  get(keyId: number): Readonly<CursorRecord> | undefined {
    return this.cursors.get(keyId);
  }

  /**
   * Records what an answer is about to carry, before its first byte, and renews the cursor's
   * lifetime. `startup` starts a new window (SPEC: the saved cursor is replaced by the fresh snapshot).
   */
  record(keyId: number, version: number, ip: string, newCount: number, deletedCount: number, startup = false): void {
    const now = this.clock.now();
    const previous = this.cursors.get(keyId);
    const sent = startup ? [version] : [...(previous?.sent ?? []), version].slice(-REPEAT_POLLS);
    const cursor: CursorRecord = {
      keyId,
      sent,
      expiresAt: now + CURSOR_TTL_MS,
      lastPollAt: now,
      lastPollIp: ip,
      polls: (previous?.polls ?? 0) + 1,
      lastNew: newCount,
      lastDeleted: deletedCount,
      refusal: previous?.refusal ?? null,
      lastFetchAt: previous?.lastFetchAt ?? null,
    };
    this.cursors.set(keyId, cursor);
    const newVersion = previous?.sent[previous.sent.length - 1] !== version;
    this.dirty.add(keyId);
    // A key's first record waits briefly for the lock: without any stored window, a crash would
    // make its next poll a first one, with no `deleted`. Later ones never wait: when a worker holds
    // the lock, the stored window stays older, which only repeats deletions (the flush retries).
    if (newVersion) this.write([keyId], previous?.sent.length ? 0 : BACKGROUND_BUSY_WAIT_MS);
  }

  /**
   * A router-feed fetch is the key's poll everywhere (status, Dashboard, health, logs): it renews
   * the last poll and the count, and never touches the delivery window (a feed is a whole list).
   */
  fetched(keyId: number, ip: string): void {
    const now = this.clock.now();
    const previous = this.cursors.get(keyId);
    this.cursors.set(keyId, {
      keyId,
      sent: previous?.sent ?? [],
      expiresAt: previous?.expiresAt ?? null,
      lastPollAt: now,
      lastPollIp: ip,
      polls: (previous?.polls ?? 0) + 1,
      lastNew: previous?.lastNew ?? 0,
      lastDeleted: previous?.lastDeleted ?? 0,
      refusal: previous?.refusal ?? null,
      lastFetchAt: now,
    });
    this.dirty.add(keyId);
    // The first fetch is written at once: the key's status reads the database from a worker.
    if (!previous) this.write([keyId], 0);
  }

  /** Records a known key's refused poll (shown until the key is served again). */
  refused(keyId: number, refusal: Refusal): void {
    const previous = this.cursors.get(keyId);
    this.cursors.set(keyId, {
      keyId,
      sent: previous?.sent ?? [],
      expiresAt: previous?.expiresAt ?? null,
      lastPollAt: previous?.lastPollAt ?? null,
      lastPollIp: previous?.lastPollIp ?? null,
      polls: previous?.polls ?? 0,
      lastNew: previous?.lastNew ?? 0,
      lastDeleted: previous?.lastDeleted ?? 0,
      refusal,
      lastFetchAt: previous?.lastFetchAt ?? null,
    });
    this.dirty.add(keyId);
  }

  /** Writes the renewals, statistics and refusals batched since the last flush, in one transaction. */
  flush(): void {
    if (this.dirty.size > 0) this.write([...this.dirty]);
  }

  /**
   * Writes some keys' records. A failure (SQLITE_BUSY while a long write holds the lock, a full
   * disk) keeps them pending for the next flush: the process never goes down for it, and the disk
   * then holds an older window, which can only repeat deletions, never lose one.
   */
  private write(keyIds: number[], waitMs = BACKGROUND_BUSY_WAIT_MS): void {
    try {
      // At most a short wait for the lock: this runs on the web thread, before an answer's first byte.
      writeWithShortWait(
        this.db,
        () =>
          this.db.transaction(() => {
            for (const keyId of keyIds) {
              const cursor = this.cursors.get(keyId);
              if (!cursor) continue;
              this.save.run({
                keyId,
                version: cursor.sent[cursor.sent.length - 1] ?? null,
                sentVersions: JSON.stringify(cursor.sent),
                expiresAt: cursor.expiresAt,
                lastPollAt: cursor.lastPollAt,
                lastPollIp: cursor.lastPollIp,
                polls: cursor.polls,
                lastNew: cursor.lastNew,
                lastDeleted: cursor.lastDeleted,
                refusedAt: cursor.refusal?.at ?? null,
                refusedIp: cursor.refusal?.ip ?? null,
                refusedCode: cursor.refusal?.code ?? null,
                refusedReason: cursor.refusal?.reason ?? null,
                lastFetchAt: cursor.lastFetchAt,
              });
            }
          })(),
        waitMs,
      );
      for (const keyId of keyIds) this.dirty.delete(keyId);
    } catch (error) {
      for (const keyId of keyIds) this.dirty.add(keyId);
      // A write-through that found the lock held is retried by the next flush: only a flush's failure is news.
      if (waitMs === 0 && isSqliteBusy(error)) return;
      this.logger?.warn(
        { err: error, pending: this.dirty.size },
        'bouncer cursors not saved yet; retrying at the next flush',
      );
    }
  }

  /** Drops the cursors of keys that no longer exist (revoked keys never poll again). */
  forgetRevokedKeys(): void {
    this.flush();
    const existing = new Set(apiKeyIds(this.db));
    for (const keyId of this.cursors.keys()) {
      if (existing.has(keyId)) continue;
      this.cursors.delete(keyId);
      this.dirty.delete(keyId);
    }
    deleteRowsOfRevokedKeys(this.db, 'bouncer_cursors');
  }

  /** The oldest version any live cursor's window still needs, or undefined when no cursor is live. */
  oldestLiveVersion(): number | undefined {
    const now = this.clock.now();
    let oldest: number | undefined;
    for (const cursor of this.cursors.values()) {
      const since = cursor.sent[0];
      if (since === undefined || cursor.expiresAt === null || cursor.expiresAt <= now) continue;
      if (oldest === undefined || since < oldest) oldest = since;
    }
    return oldest;
  }

  /** Every key's record (the health checks read them each tick: one per key, in memory). */
  all(): Iterable<Readonly<CursorRecord>> {
    return this.cursors.values();
  }

  get size(): number {
    return this.cursors.size;
  }
}
