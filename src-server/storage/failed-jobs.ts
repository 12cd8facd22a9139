import { statement, type Db } from './database.ts';

/**
 * How long parked jobs are kept, and how many at most: enough for an operator to read what failed
 * last week, never a table that grows without bound (each failing request adds a row).
 */
export const FAILED_JOBS_RETENTION = { days: 7, maxRows: 1000 } as const;

export interface FailedJob {
  jobId: string;
  /** JSON of the job target. */
  target: string;
  attempts: number;
  /** One line: `Name [CODE]: message`. */
  error: string;
}

/** Parks a job and prunes the table in the same transaction. */
export function recordFailedJob(db: Db, job: FailedJob, nowMs = Date.now()): void {
  db.transaction(() => {
    statement(db, 'INSERT INTO failed_jobs (job_id, target, attempts, error, failed_at) VALUES (?, ?, ?, ?, ?)').run(
      job.jobId,
      job.target,
      job.attempts,
      job.error.slice(0, 2000),
      new Date(nowMs).toISOString(),
    );
    pruneFailedJobs(db, nowMs);
  })();
}

/** Drops parked jobs older than the retention period and all but the newest maxRows. Returns rows removed. */
export function pruneFailedJobs(db: Db, nowMs = Date.now()): number {
  const cutoff = new Date(nowMs - FAILED_JOBS_RETENTION.days * 86_400_000).toISOString();
  // failed_at is ISO 8601 UTC text, so text order is time order.
  const old = statement(db, 'DELETE FROM failed_jobs WHERE failed_at < ?').run(cutoff).changes;
  const excess = statement(
    db,
    'DELETE FROM failed_jobs WHERE id <= (SELECT id FROM failed_jobs ORDER BY id DESC LIMIT 1 OFFSET ?)',
  ).run(FAILED_JOBS_RETENTION.maxRows).changes;
  return old + excess;
}
