import { sqlMigration } from './migration.ts';

/**
 * Resync requests (api-keys/{id}:resync): when an operator last asked that a key's bouncer or
 * router be sent everything again. The web thread, which holds the feeds' per-key cursors,
 * forgets a key's cursors when its request is newer than the last one it applied.
 */
export const apiKeyResyncsMigration = sqlMigration(
  15,
  'api key resyncs',
  `
      CREATE TABLE api_key_resyncs (
        key_id       INTEGER PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
        requested_at INTEGER NOT NULL               -- epoch ms
      );
    `,
);
