import { sqlMigration } from './migration.ts';

/**
 * API key lifecycle: disable and enable (`disabled_at`, null while enabled), optional expiry
 * (`expires_at`, ISO date-time, null = never), the time of the last rotation, and the last use per
 * source address (the 20 most recent per key, written at most once a minute per key and address).
 */
export const apiKeyLifecycleMigration = sqlMigration(
  11,
  'api key lifecycle',
  `
      ALTER TABLE api_keys ADD COLUMN disabled_at TEXT;
      ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
      ALTER TABLE api_keys ADD COLUMN rotated_at TEXT;
      CREATE TABLE api_key_sources (
        key_id       INTEGER NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
        ip           TEXT NOT NULL,
        last_used_at TEXT NOT NULL,
        PRIMARY KEY (key_id, ip)
      ) WITHOUT ROWID;
      INSERT INTO api_key_sources (key_id, ip, last_used_at)
        SELECT id, last_used_ip, last_used_at FROM api_keys WHERE last_used_ip IS NOT NULL AND last_used_at IS NOT NULL;
    `,
);
