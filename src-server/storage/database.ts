import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

/** Mode of every file this server keeps in the data directory (the db holds secrets). */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of the data directory itself. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * A connection whose transactions begin IMMEDIATE. Workers and the web thread write the same file:
 * a deferred transaction that reads, then writes after another connection committed, fails with
 * SQLITE_BUSY_SNAPSHOT, which busy_timeout never waits out. Taking the write lock at BEGIN makes
 * the transaction wait its turn instead. `.deferred` stays available for read-only transactions.
 */
class Connection extends Database {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- better-sqlite3's own signature
  override transaction<F extends (...params: any[]) => unknown>(fn: F): Database.Transaction<F> {
    // Each version of a better-sqlite3 transaction carries the others (.deferred, .exclusive) as properties.
    return super.transaction(fn).immediate as Database.Transaction<F>;
  }
}

/** Opens the SQLite file with the pragmas every connection (web thread and workers) relies on. */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') createPrivately(file);
  const db = new Connection(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Creates the database file 0600 before SQLite opens it (umask-independent), and tightens an older
 * file and its -wal/-shm. SQLite gives the -wal and -shm files it creates the database file's mode.
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
  }
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, compiled once per connection and SQL text (hot paths run the same SQL many times). */
export function statement(db: Db, sql: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}
