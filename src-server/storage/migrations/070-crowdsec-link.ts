import { SEAL_SECRET_FUNCTION } from '../database.ts';
import { SEALED_PREFIX } from '../secret-box.ts';
import type { Migration } from './migration.ts';

/** Settings key of the `crowdsec-link` singleton (its secrets are sealed by the triggers below). */
export const CROWDSEC_LINK_SETTING_KEY = 'crowdsec-link';
/** Contexts of its sealed members (revealSecret needs the same one). */
export const CROWDSEC_LINK_SECRETS = {
  machinePassword: 'crowdsec-link.machinePassword',
  bouncerKey: 'crowdsec-link.bouncerKey',
} as const;

const unsealed = (expr: string) => `coalesce(${expr}, '') <> '' AND ${expr} NOT LIKE '${SEALED_PREFIX}%'`;

/**
 * Seals the secret members of the `crowdsec-link` settings row on every write, as 004 does for
 * AMI. Each statement reads the row as it is now (not NEW), so sealing one member never puts the
 * other back in clear.
 */
function sealedLinkSecrets(): string {
  const seal = Object.entries(CROWDSEC_LINK_SECRETS)
    .map(([member, context]) => {
      const current = `json_extract(value, '$.${member}')`;
      return (
        `UPDATE settings SET value = json_set(value, '$.${member}', ` +
        `${SEAL_SECRET_FUNCTION}(${current}, '${context}')) WHERE key = NEW.key AND ` +
        `json_valid(value) AND json_type(value, '$.${member}') = 'text' AND ${unsealed(current)};`
      );
    })
    .join(' ');
  const when = `NEW.key = '${CROWDSEC_LINK_SETTING_KEY}'`;
  return `
    CREATE TRIGGER crowdsec_link_secrets_sealed_on_insert AFTER INSERT ON settings WHEN ${when} BEGIN ${seal} END;
    CREATE TRIGGER crowdsec_link_secrets_sealed_on_update AFTER UPDATE OF value ON settings WHEN ${when} BEGIN ${seal} END;`;
}

/**
 * The link to an upstream CrowdSec LAPI (src-server/upstream/):
 * - crowdsec_push_queue: bans and lifts waiting to be sent, durable while the LAPI is down;
 *   `sent_batch` marks rows handed to a request whose answer was not seen yet (checked upstream
 *   after a crash, so each is sent once).
 * - crowdsec_pushed: (value, scenario) this PBX pushed, until when: its own decisions coming back
 *   in the stream are recognised and not applied twice.
 * - crowdsec_upstream_decisions: the LAPI's decisions as pulled, by their LAPI id.
 * - crowdsec_shared_filters: filter deny entries pushed (when shared), and when, to send their
 *   removal and renew them before they run out upstream.
 * - crowdsec_link_state: one row of counters and the last outcome, for link:getStatus.
 */
export const crowdsecLinkMigration: Migration = {
  version: 70,
  name: 'CrowdSec LAPI link: push queue, pushed ledger, pulled decisions, link state',
  up(db) {
    db.exec(
      `
      CREATE TABLE crowdsec_push_queue (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        kind        TEXT NOT NULL CHECK (kind IN ('add', 'delete')),
        value       TEXT NOT NULL,
        scope       TEXT NOT NULL,
        scenario    TEXT NOT NULL,
        reason      TEXT NOT NULL DEFAULT '',
        expires_at  INTEGER NOT NULL,            -- epoch ms; an add past it is dropped unsent
        queued_at   INTEGER NOT NULL,
        attempts    INTEGER NOT NULL DEFAULT 0,
        sent_batch  INTEGER                      -- the batch (epoch ms) whose answer was not seen yet
      );
      CREATE INDEX crowdsec_push_queue_value ON crowdsec_push_queue (value, scenario);

      CREATE TABLE crowdsec_pushed (
        value      TEXT NOT NULL,
        scenario   TEXT NOT NULL,
        until      INTEGER NOT NULL,
        PRIMARY KEY (value, scenario)
      );

      CREATE TABLE crowdsec_upstream_decisions (
        lapi_id    INTEGER PRIMARY KEY,
        value      TEXT NOT NULL,
        scope      TEXT NOT NULL,
        scenario   TEXT NOT NULL,
        origin     TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX crowdsec_upstream_decisions_value ON crowdsec_upstream_decisions (value);

      CREATE TABLE crowdsec_shared_filters (
        value     TEXT PRIMARY KEY,
        pushed_at INTEGER NOT NULL
      );

      CREATE TABLE crowdsec_link_state (
        id    INTEGER PRIMARY KEY CHECK (id = 1),
        value TEXT NOT NULL                      -- JSON: LinkStatus (upstream/link-state.ts)
      );
    ` + sealedLinkSecrets(),
    );
  },
};
