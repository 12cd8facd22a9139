import { sqlMigration } from './migration.ts';

/** Settings, the first PBX resources, and parked failed jobs. */
export const coreMigration = sqlMigration(
  1,
  'core',
  `
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE extensions (
        number   TEXT PRIMARY KEY,
        username TEXT NOT NULL,
        callerid TEXT NOT NULL DEFAULT '',
        secret   TEXT NOT NULL DEFAULT '',
        disabled INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE providers (
        id          TEXT PRIMARY KEY,
        description TEXT NOT NULL,
        host        TEXT NOT NULL,
        username    TEXT NOT NULL DEFAULT '',
        secret      TEXT NOT NULL DEFAULT '',
        disabled    INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE failed_jobs (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id     TEXT NOT NULL,
        target     TEXT NOT NULL,
        attempts   INTEGER NOT NULL,
        error      TEXT NOT NULL,
        failed_at  TEXT NOT NULL
      );
    `,
);
