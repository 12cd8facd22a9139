import { SEAL_SECRET_FUNCTION } from '../database.ts';
import { SEALED_PREFIX } from '../secret-box.ts';
import type { Migration } from './migration.ts';

/** Context of a channel's sealed secret (revealSecret needs the same one). */
export const NOTIFICATION_SECRET_CONTEXT = 'notification_channels.secret';

const unsealed = `coalesce(NEW.secret, '') <> '' AND NEW.secret NOT LIKE '${SEALED_PREFIX}%'`;
const seal = `UPDATE notification_channels SET secret = ${SEAL_SECRET_FUNCTION}(NEW.secret, '${NOTIFICATION_SECRET_CONTEXT}') WHERE rowid = NEW.rowid;`;

/**
 * Notifications (src-server/notifications/, issue 5/6):
 * - notification_channels: where messages go (webhook, e-mail, syslog, ntfy). Settings of every
 *   type share the row; `secret` (HMAC key, SMTP password, ntfy token) is sealed by the triggers,
 *   as 004 does for SIP secrets. `lastResult` is the web thread's last send outcome (JSON).
 * - notification_rules: which checks at which minimum severity go to which channel, with a digest
 *   window; a rule goes with its channel.
 */
export const notificationsMigration: Migration = {
  version: 85,
  name: 'notification channels and rules',
  up(db) {
    db.exec(`
      CREATE TABLE notification_channels (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        name        TEXT NOT NULL,
        type        TEXT NOT NULL,
        enabled     INTEGER NOT NULL DEFAULT 1,
        url         TEXT,
        topic       TEXT,
        host        TEXT,
        port        INTEGER,
        transport   TEXT,
        security    TEXT,
        tlsVerify   INTEGER NOT NULL DEFAULT 1,
        username    TEXT,
        "from"      TEXT,
        "to"        TEXT,
        appName     TEXT,
        secret      TEXT,
        lastResult  TEXT
      );
      CREATE TABLE notification_rules (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        name          TEXT NOT NULL,
        channelId     INTEGER NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
        checks        TEXT NOT NULL DEFAULT '[]',
        minSeverity   TEXT NOT NULL DEFAULT 'warning',
        digestMinutes INTEGER NOT NULL DEFAULT 0,
        recoveries    INTEGER NOT NULL DEFAULT 1,
        enabled       INTEGER NOT NULL DEFAULT 1
      );
      CREATE INDEX notification_rules_channel ON notification_rules (channelId);
      CREATE TRIGGER notification_secret_sealed_on_insert AFTER INSERT ON notification_channels WHEN ${unsealed} BEGIN ${seal} END;
      CREATE TRIGGER notification_secret_sealed_on_update AFTER UPDATE OF secret ON notification_channels WHEN ${unsealed} BEGIN ${seal} END;
    `);
  },
};
