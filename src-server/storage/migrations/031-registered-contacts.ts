import { sqlMigration } from './migration.ts';

/**
 * Registered-phone protection (docs/firewall.md): the addresses PJSIP endpoints are registered
 * from, written by the web thread's AMI monitor and read by workers (manual bans, imports, the
 * lookup, upstream lists), and the accounts flagged for failing from such an address.
 */
export const registeredContactsMigration = sqlMigration(
  31,
  'registered contacts and flagged accounts',
  `
      CREATE TABLE registered_contacts (
        address  TEXT NOT NULL,                  -- canonical address of the contact
        endpoint TEXT NOT NULL,                  -- PJSIP endpoint (the extension number)
        since    INTEGER NOT NULL,               -- epoch ms the registration was first seen
        ended_at INTEGER,                        -- epoch ms it ended; NULL while registered
        PRIMARY KEY (address, endpoint)
      );
      CREATE TABLE account_flags (
        account             TEXT NOT NULL,
        address             TEXT NOT NULL,
        registered_accounts TEXT NOT NULL,       -- JSON array of the endpoints registered there at the flag
        failures            INTEGER NOT NULL,
        flagged_at          INTEGER NOT NULL,
        last_failure_at     INTEGER NOT NULL,
        PRIMARY KEY (account, address)
      );
    `,
);
