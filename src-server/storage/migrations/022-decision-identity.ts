import type { Migration } from './migration.ts';

/**
 * Decisions are unique by (value, scenario): the crc32 id is only a label, and two decisions that
 * share it are both published. Removals carry their time, for the 7-day retention. Bouncer hosts
 * are tracked per (key, source address), like the CrowdSec LAPI's `name@ip`, with what they report
 * through usage metrics.
 */
export const decisionIdentityMigration: Migration = {
  version: 22,
  name: 'decision log keyed by (value, scenario); bouncer hosts and usage metrics',
  up(db) {
    const now = Date.now();
    db.exec(`
      CREATE TABLE bouncer_decisions_v2 (
        value           TEXT NOT NULL,
        scenario        TEXT NOT NULL,
        added_version   INTEGER NOT NULL,
        removed_version INTEGER,
        removed_at      INTEGER,
        PRIMARY KEY (value, scenario, added_version)
      );
      INSERT OR IGNORE INTO bouncer_decisions_v2 (value, scenario, added_version, removed_version, removed_at)
        SELECT value, scenario, added_version, removed_version, CASE WHEN removed_version IS NULL THEN NULL ELSE ${now} END
          FROM bouncer_decisions;
      DROP TABLE bouncer_decisions;
      ALTER TABLE bouncer_decisions_v2 RENAME TO bouncer_decisions;
      CREATE INDEX bouncer_decisions_removed ON bouncer_decisions (removed_version);

      CREATE TABLE bouncer_hosts (
        key_id       INTEGER NOT NULL,
        ip           TEXT NOT NULL,
        first_seen   INTEGER NOT NULL,
        last_seen    INTEGER NOT NULL,
        polls        INTEGER NOT NULL DEFAULT 0,
        user_agent   TEXT NOT NULL DEFAULT '',
        metrics      TEXT,
        metrics_at   INTEGER,
        PRIMARY KEY (key_id, ip)
      );

      CREATE TABLE bouncer_rejections (
        ip         TEXT PRIMARY KEY,
        key_id     INTEGER,
        reason     TEXT NOT NULL,
        first_at   INTEGER NOT NULL,
        last_at    INTEGER NOT NULL,
        count      INTEGER NOT NULL DEFAULT 1,
        cleared_at INTEGER
      );
    `);
  },
};
