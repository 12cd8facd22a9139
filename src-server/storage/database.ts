import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createPrivateFile, PRIVATE_DIR_MODE, tightenFiles } from './private-files.ts';
import { isSealed, loadSecretKey, openSecret, sealSecret } from './secret-box.ts';

export type Db = Database.Database;

/** The data directory: where the database file lives (the server opens `<dataDir>/pbx.sqlite`); workers learn it here. */
export const dataDirOf = (db: Db): string => dirname(db.name);

/** SQL function that seals a secret column on write (see migrations/004-sealed-secrets.ts). */
export const SEAL_SECRET_FUNCTION = 'pbx_seal_secret';

const secretKeys = new WeakMap<Db, Buffer>();

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

/**
 * Opens the SQLite file with the pragmas and functions every connection (web thread and workers)
 * relies on. The file is created 0600 before SQLite opens it (umask-independent; SQLite gives the
 * -wal and -shm files it creates the database's mode), and an older, looser copy is tightened.
 * The data directory's secret key (secrets.key, beside the database) seals secrets on write.
 */
export function openDatabase(file: string): Db {
  const memory = file === ':memory:';
  if (!memory) {
    mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    createPrivateFile(file);
    tightenFiles(file, `${file}-wal`, `${file}-shm`);
  }
  const key = memory ? randomBytes(32) : loadSecretKey(dirname(file));
  const db = new Connection(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  // Freed cells and pages are zeroed, so a secret replaced by its sealed form leaves no clear copy in the file.
  db.pragma('secure_delete = ON');
  db.function(SEAL_SECRET_FUNCTION, { deterministic: false }, (value: unknown, context: unknown) =>
    typeof value === 'string' && value !== '' && !isSealed(value) ? sealSecret(key, value, String(context)) : value,
  );
  secretKeys.set(db, key);
  return db;
}

/**
 * The clear text of a secret stored sealed, for the one place that uses it (the AMI login, a
 * comparison with a re-entered secret). `context` names the column, as the seal trigger did.
 */
export function revealSecret(db: Db, stored: string, context: string): string {
  const key = secretKeys.get(db);
  if (!key) throw new Error('This connection was not opened with openDatabase: it has no secret key.');
  return openSecret(key, stored, context);
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
