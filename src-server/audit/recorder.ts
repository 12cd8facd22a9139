import { createHash } from 'node:crypto';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import type { AuditRejection } from '../wire/types.ts';
import { pruneAuditLog, recordRejections, REJECTION_WINDOW_MS, type RejectionGroup } from './store.ts';

/** Rejections are written in batches: one transaction per flush, at most this often. */
export const FLUSH_MS = 500;
/** More distinct rejections pending than this are written at once rather than held in memory. */
const FLUSH_AT = 200;
/**
 * Open rows remembered for coalescing, least recently seen dropped first. Past it (a spray from
 * more sources than this within one window), a forgotten source's next rejection starts a new row:
 * more rows, never a lost attempt.
 */
export const MAX_OPEN_ROWS = 10_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface AuditRecorderDeps {
  db: Db;
  now(): number;
  /** The current retention (general-settings `auditRetentionDays`). */
  retentionDays(): number;
  onError(error: unknown): void;
}

/** One row being coalesced: its window and what is not yet written to it. */
interface OpenRow {
  /** Null until the first flush wrote the row. */
  rowId: number | null;
  /** The first attempt: the row takes identical rejections until `start + REJECTION_WINDOW_MS`. */
  start: number;
  /** The last attempt seen: the row is forgotten once it is a window old. */
  seen: number;
  /** Attempts not yet written, and the latest of them (kept only while some are pending). */
  pending: { count: number; first: number; last: number; rejection: AuditRejection } | null;
}

/**
 * What makes two rejections the same row: the kind, the key (its id when it exists) or the login
 * tried, the source address, the request and the outcome. Hashed, so a long path or reason costs
 * the map no more than a short one.
 */
export function rejectionIdentity(rejection: AuditRejection): string {
  const { kind, keyId, login, address, method, path, status, reason } = rejection;
  return createHash('sha256')
    .update(JSON.stringify([kind, keyId ?? null, login ?? null, address, method, path, status, reason]))
    .digest('base64url');
}

/**
 * The web thread's part of the audit log. Writes are recorded by the workers that run them
 * (worker/audit-write.ts); this records what never reaches a worker, rejected API key uses and
 * failed logins, and prunes entries older than the retention every hour.
 *
 * Identical rejections within REJECTION_WINDOW_MS of the first share one row: the first is written
 * at the next flush (within FLUSH_MS), later ones add to its count and last time at their flush. A
 * bouncer polling with a disabled key thus writes one row per window, not one per poll.
 */
export class AuditRecorder {
  /** By identity; Map order is least recently seen first (an entry is re-inserted when seen). */
  private readonly open = new Map<string, OpenRow>();
  /** Rows with pending attempts, in the order they were first seen (which is the order they get ids). */
  private dirty = new Set<OpenRow>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(private readonly deps: AuditRecorderDeps) {
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.prune();
  }

  reject(rejection: AuditRejection): void {
    const at = this.deps.now();
    const identity = rejectionIdentity(rejection);
    let row = this.open.get(identity);
    this.open.delete(identity);
    if (!row || at - row.start >= REJECTION_WINDOW_MS) {
      // A new window: the old row (if any) keeps its pending attempts through `dirty`.
      row = { rowId: null, start: at, seen: at, pending: null };
    }
    row.seen = Math.max(row.seen, at);
    this.open.set(identity, row);
    if (this.open.size > MAX_OPEN_ROWS) this.open.delete(this.open.keys().next().value!);
    if (row.pending) {
      row.pending.count += 1;
      row.pending.last = Math.max(row.pending.last, at);
      row.pending.rejection = rejection;
    } else {
      row.pending = { count: 1, first: at, last: at, rejection };
      this.dirty.add(row);
    }
    if (this.dirty.size >= FLUSH_AT) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Writes what is pending (also called on stop, and by tests that read the table at once). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.forgetClosedRows();
    if (!this.dirty.size) return;
    const rows = [...this.dirty];
    this.dirty = new Set();
    const groups: RejectionGroup[] = rows.map((row) => ({ rowId: row.rowId, ...row.pending! }));
    let ids: number[] = [];
    const written = tryBackgroundWrite(
      this.deps.db,
      () => (ids = recordRejections(this.deps.db, groups)),
      this.deps.onError,
    );
    if (!written) {
      // The database is locked (or failing): every attempt stays pending and the flush is tried again.
      for (const row of rows) this.dirty.add(row);
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
      return;
    }
    rows.forEach((row, index) => {
      row.rowId = ids[index]!;
      row.pending = null;
    });
  }

  /** How many rows are remembered for coalescing (bounded by MAX_OPEN_ROWS; for tests). */
  get openRows(): number {
    return this.open.size;
  }

  /** Drops rows whose window has passed, least recently seen first (the rest expire by the window check). */
  private forgetClosedRows(): void {
    const now = this.deps.now();
    for (const [identity, row] of this.open) {
      if (now - row.seen < REJECTION_WINDOW_MS) break;
      this.open.delete(identity);
    }
  }

  /** Deletes entries past the retention; returns how many. */
  prune(): number {
    let removed = 0;
    tryBackgroundWrite(
      this.deps.db,
      () => (removed = pruneAuditLog(this.deps.db, this.deps.now(), this.deps.retentionDays())),
      this.deps.onError,
    );
    return removed;
  }

  stop(): void {
    clearInterval(this.pruneTimer);
    this.flush();
    // A flush refused at stop is not retried against a closing database.
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }
}
