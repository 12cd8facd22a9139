import type { Db } from '../storage/database.ts';
import type { AuditRejection } from '../wire/types.ts';
import { pruneAuditLog, recordRejections } from './store.ts';

/** Rejections are written in batches: one transaction per flush, at most this often. */
const FLUSH_MS = 500;
/** A burst larger than this is written at once rather than held in memory. */
const FLUSH_AT = 200;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface AuditRecorderDeps {
  db: Db;
  now(): number;
  /** The current retention (general-settings `auditRetentionDays`). */
  retentionDays(): number;
  onError(error: unknown): void;
}

/**
 * The web thread's part of the audit log. Writes are recorded by the workers that run them
 * (worker/audit-write.ts); this records what never reaches a worker, rejected API key uses and
 * failed logins, in batches, and prunes entries older than the retention every hour.
 */
export class AuditRecorder {
  private pending: Array<{ at: number; rejection: AuditRejection }> = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly pruneTimer: NodeJS.Timeout;

  constructor(private readonly deps: AuditRecorderDeps) {
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
    this.prune();
  }

  reject(rejection: AuditRejection): void {
    this.pending.push({ at: this.deps.now(), rejection });
    if (this.pending.length >= FLUSH_AT) this.flush();
    else this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Writes what is pending (also called on stop, and by tests that read the table at once). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    try {
      recordRejections(this.deps.db, batch);
    } catch (error) {
      this.deps.onError(error);
    }
  }

  /** Deletes entries past the retention; returns how many. */
  prune(): number {
    try {
      return pruneAuditLog(this.deps.db, this.deps.now(), this.deps.retentionDays());
    } catch (error) {
      this.deps.onError(error);
      return 0;
    }
  }

  stop(): void {
    clearInterval(this.pruneTimer);
    this.flush();
  }
}
