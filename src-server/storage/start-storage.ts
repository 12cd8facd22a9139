import { join, resolve } from 'node:path';
import { openDatabase, type Db } from './database.ts';
import { migrate } from './migrations.ts';
import { ensurePrivateDataDir } from './private-files.ts';

/** The data directory and its migrated database, for one running server. */
export interface StorageArea {
  dataDir: string;
  databaseFile: string;
  db: Db;
  /** Closes the database (last, after everything that writes to it). */
  stop(): void;
}

/** Opens the data directory (0700, its files 0600) and its database, migrated to the current version. */
export function startStorage(dataDirPath: string): StorageArea {
  const dataDir = resolve(dataDirPath);
  // 0700 whatever the umask, its files 0600: the database, its key and the JWT secret live here.
  ensurePrivateDataDir(dataDir);
  const databaseFile = join(dataDir, 'pbx.sqlite');
  const db = openDatabase(databaseFile);
  migrate(db);
  return { dataDir, databaseFile, db, stop: () => db.close() };
}
