import Database from 'better-sqlite3';
import { isSqliteBusy } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';

/** One statement on the watched connection that ended in SQLITE_BUSY. */
export interface LockWait {
  /** The busy_timeout then in force: how long it was let wait for the lock. */
  ms: number;
  /** Where it ran (to tell a timer's background write from a request's). */
  stack: string;
}

/** What `recordLockWaits` saw: each wait `db` was allowed when SQLite said the lock was held. */
export interface LockWaits {
  readonly waits: LockWait[];
  /** The longest wait allowed (0 when none). */
  longest(): number;
  /** The waits outside a timer's background writes (tryBackgroundWrite, or any write a timer runs): those of requests and events. */
  inForeground(): LockWait[];
  stop(): void;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Records how long the connection `db` (the web thread's, in this thread) was allowed to wait for
 * a write lock another connection holds: for every statement, transaction or exec on `db` that ends
 * in SQLITE_BUSY, the busy_timeout then in force. A held lock is only ever waited out to that
 * limit, so "never longer than N ms" is a property of the code, read without a clock.
 */
export function recordLockWaits(db: Db): LockWaits {
  const waits: LockWait[] = [];
  const record = (connection: unknown, error: unknown) => {
    if (connection === db && isSqliteBusy(error))
      waits.push({ ms: db.pragma('busy_timeout', { simple: true }) as number, stack: new Error().stack ?? '' });
  };
  const statementProto = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, Method>;
  const databaseProto = Database.prototype as unknown as Record<string, Method>;
  const patched: Array<[Record<string, Method>, string, Method]> = [];
  const wrap = (proto: Record<string, Method>, name: string, connectionOf: (self: unknown) => unknown) => {
    const original = proto[name]!;
    patched.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      try {
        return original.apply(this, args);
      } catch (error) {
        record(connectionOf(this), error);
        throw error;
      }
    };
  };
  // Transactions begin and commit through statements' run, so these cover them too.
  for (const name of ['run', 'get', 'all', 'iterate'])
    wrap(statementProto, name, (self) => (self as Database.Statement).database);
  wrap(databaseProto, 'exec', (self) => self);
  return {
    waits,
    longest: () => Math.max(0, ...waits.map((wait) => wait.ms)),
    // A timer's callback (a flush, the link status) is never a request's: Node runs it from listOnTimeout.
    inForeground: () =>
      waits.filter((wait) => !wait.stack.includes('tryBackgroundWrite') && !wait.stack.includes('listOnTimeout')),
    stop: () => {
      for (const [proto, name, original] of patched.reverse()) proto[name] = original;
    },
  };
}
