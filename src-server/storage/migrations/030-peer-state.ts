import { sqlMigration } from './migration.ts';

/**
 * Live Asterisk state, written by the web thread's AMI monitor and read by worker actions
 * (which cannot reach the AMI connection). Raw AMI values are kept; mapping to the SPEC's
 * states happens on read, so a rule change needs no data migration.
 */
export const peerStateMigration = sqlMigration(
  30,
  'peer and registry state from AMI',
  `
      CREATE TABLE peer_state (
        endpoint     TEXT PRIMARY KEY,          -- PJSIP endpoint name (the extension number)
        device_state TEXT NOT NULL,             -- DeviceState of PJSIPShowEndpoints, e.g. "Not in use"
        contacts     TEXT NOT NULL DEFAULT '',  -- Contacts of PJSIPShowEndpoints
        updated_at   INTEGER NOT NULL           -- epoch ms
      );
      CREATE TABLE registry_state (
        registration TEXT PRIMARY KEY,          -- ObjectName of PJSIPShowRegistrationsOutbound
        status       TEXT NOT NULL,             -- Registered, Unregistered, Rejected, ...
        server_uri   TEXT NOT NULL DEFAULT '',
        client_uri   TEXT NOT NULL DEFAULT '',
        updated_at   INTEGER NOT NULL
      );
      CREATE TABLE peer_detail (
        endpoint   TEXT PRIMARY KEY,
        detail     TEXT,                        -- JSON of the ContactStatusDetail event; NULL when no contact
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE ami_link (
        id               INTEGER PRIMARY KEY CHECK (id = 1),
        connected        INTEGER NOT NULL DEFAULT 0,
        last_error       TEXT,
        state_updated_at INTEGER                -- last complete refresh of peer_state and registry_state
      );
      INSERT INTO ami_link (id, connected) VALUES (1, 0);
    `,
);
