import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../storage/database.ts';
import { migrate } from '../storage/migrations.ts';

/** A fresh, empty directory under the system's temporary folder. */
export function makeTempDir(prefix = 'pbx-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Deletes a temporary directory and everything in it; a missing one is fine. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs `run` with a fresh temporary directory and removes it afterwards, also when `run` throws or rejects. */
export function withTempDir<T>(prefix: string, run: (dir: string) => T): T {
  const dir = makeTempDir(prefix);
  let result: T;
  try {
    result = run(dir);
  } catch (error) {
    removeTempDir(dir);
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => removeTempDir(dir)) as T;
  removeTempDir(dir);
  return result;
}

export interface TempDb {
  /** The directory that holds the database file (and nothing else the helper made). */
  dir: string;
  file: string;
  db: Db;
  /** Opens another connection to the same file, closed by `dispose()` too. */
  connect(): Db;
  /** Closes every connection and removes the directory. */
  dispose(): void;
}

/** A real SQLite file in its own temporary directory, migrated to the current schema unless `migrate` is false. */
export function openTempDb(prefix = 'pbx-test-', options: { migrate?: boolean; fileName?: string } = {}): TempDb {
  const dir = makeTempDir(prefix);
  const file = join(dir, options.fileName ?? 'pbx.sqlite');
  const opened: Db[] = [];
  const connect = () => {
    const db = openDatabase(file);
    opened.push(db);
    return db;
  };
  const db = connect();
  if (options.migrate !== false) migrate(db);
  return {
    dir,
    file,
    db,
    connect,
    dispose() {
      for (const each of opened) if (each.open) each.close();
      removeTempDir(dir);
    },
  };
}
