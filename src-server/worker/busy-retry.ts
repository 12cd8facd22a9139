import { setTimeout as sleep } from 'node:timers/promises';
import { isBusyError } from '../queue/job-error.ts';

export interface BusyRetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Wait before the second try; doubled each time, with up to 50 % random jitter so workers spread out. */
  baseDelayMs: number;
  /** No new try starts after this long (each try may itself wait busy_timeout for the lock). */
  budgetMs: number;
}

/**
 * A locked database is a passing state, not a defect: SQLite's busy_timeout already waited for the
 * lock, and SQLITE_BUSY_SNAPSHOT (a read transaction that cannot become a write) is never waited
 * for. Five tries over at most 10 s, 25 ms apart and doubling, then the busy error is thrown.
 */
export const DEFAULT_BUSY_RETRY: BusyRetryPolicy = { attempts: 5, baseDelayMs: 25, budgetMs: 10_000 };

/**
 * Runs `fn` again while it fails with SQLITE_BUSY*, with exponential backoff. `fn` must be safe to
 * repeat: an action's transaction rolled back when it threw, so nothing of the failed try remains.
 */
export async function retryWhileBusy<T>(
  fn: (attempt: number) => T | Promise<T>,
  policy: BusyRetryPolicy = DEFAULT_BUSY_RETRY,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (!isBusyError(error) || attempt >= policy.attempts || Date.now() - started >= policy.budgetMs) throw error;
      const delay = policy.baseDelayMs * 2 ** (attempt - 1);
      await sleep(delay + Math.random() * delay * 0.5);
    }
  }
}
