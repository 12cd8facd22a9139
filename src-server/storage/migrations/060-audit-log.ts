import { sqlMigration } from './migration.ts';

/**
 * The audit log (audit/): every write through any channel, rejected API key uses and failed
 * logins. Pruned by age (general-settings `auditRetentionDays`), so `at` is indexed.
 */
export const auditLogMigration = sqlMigration(
  60,
  'audit log',
  `
      CREATE TABLE audit_log (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        at              INTEGER NOT NULL,           -- epoch ms
        kind            TEXT NOT NULL,              -- write | rejected-key | failed-login
        channel         TEXT,                       -- localhost | jwt | session | api_key (null: rejected before one was found)
        actor           TEXT,                       -- user name, 'localhost', or the login tried
        key_id          INTEGER,
        key_description TEXT,
        address         TEXT NOT NULL,
        resource        TEXT,
        record_id       TEXT,
        operation       TEXT,
        verb            TEXT,
        path            TEXT,
        status          INTEGER NOT NULL,
        reason          TEXT,
        diff            TEXT                        -- JSON array of {field, before?, after?}, secrets masked
      );
      CREATE INDEX audit_log_at ON audit_log (at);
    `,
);
