import type { Db } from './database.ts';

/**
 * How long a background write on the web thread waits for the write lock before it gives up until
 * its next tick: the web thread serves every poll, so it must never sit out a worker's busy_timeout.
 */
export const BACKGROUND_BUSY_WAIT_MS = 50;

/**
 * Runs a write on the web thread that waits at most `waitMs` for the lock (instead of the
 * connection's busy_timeout), so a worker's transaction never stalls every request; throws as the
 * write does.
 */
export function writeWithShortWait<T>(db: Db, write: () => T, waitMs = BACKGROUND_BUSY_WAIT_MS): T {
  const previous = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${waitMs}`);
  try {
    return write();
  } finally {
    try {
      db.pragma(`busy_timeout = ${previous}`);
    } catch {
      // A closed connection has no timeout to restore.
    }
  }
}

/**
 * Runs a timer's or callback's write on the web thread (see writeWithShortWait) and never throws:
 * a throw from a timer would end the process. On failure it reports the error and returns false;
 * the caller keeps its pending state and tries again at its next tick.
 */
export function tryBackgroundWrite(
  db: Db,
  write: () => void,
  report: (error: unknown) => void,
  waitMs = BACKGROUND_BUSY_WAIT_MS,
): boolean {
  try {
    writeWithShortWait(db, write, waitMs);
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

/** SQLite reports a held write lock as SQLITE_BUSY or one of its extended codes (SQLITE_BUSY_SNAPSHOT, ...). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}
