import { sqlMigration } from './migration.ts';

/**
 * Intrusion bans, the published decision log and the bouncers' cursors.
 * - firewall_bans: one row per ban; active while lifted_at IS NULL and expires_at (epoch ms) is ahead.
 * - bouncer_decisions: each lifetime of a published decision, [added_version, removed_version).
 *   A cursor is a version, so every key shares this one log instead of holding its own id set.
 * - bouncer_cursors: per API key, the version last served, its expiry, and poll statistics.
 */
export const firewallMigration = sqlMigration(
  20,
  'firewall bans, decision log and bouncer cursors',
  `
      CREATE TABLE firewall_bans (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        category   TEXT NOT NULL,
        ip         TEXT NOT NULL,
        reason     TEXT NOT NULL DEFAULT '',
        banned_at  INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        lifted_at  INTEGER
      );
      CREATE INDEX firewall_bans_active ON firewall_bans (expires_at) WHERE lifted_at IS NULL;
      CREATE INDEX firewall_bans_ip ON firewall_bans (ip);
      CREATE INDEX firewall_bans_banned_at ON firewall_bans (banned_at);

      CREATE TABLE bouncer_decisions (
        decision_id     INTEGER NOT NULL,
        added_version   INTEGER NOT NULL,
        removed_version INTEGER,
        value           TEXT NOT NULL,
        scenario        TEXT NOT NULL,
        PRIMARY KEY (decision_id, added_version)
      );
      CREATE INDEX bouncer_decisions_removed ON bouncer_decisions (removed_version);

      CREATE TABLE bouncer_state (
        name  TEXT PRIMARY KEY,
        value INTEGER NOT NULL
      );

      CREATE TABLE bouncer_cursors (
        key_id       INTEGER PRIMARY KEY,
        version      INTEGER,
        expires_at   INTEGER,
        last_poll_at INTEGER,
        last_poll_ip TEXT,
        polls        INTEGER NOT NULL DEFAULT 0,
        last_new     INTEGER NOT NULL DEFAULT 0,
        last_deleted INTEGER NOT NULL DEFAULT 0
      );
    `,
);
