import { sqlMigration } from './migration.ts';

/**
 * What each key was last served, as delivery counts need it (issue 4/6): for a capped key, what its
 * cap left out (counts by class, and this PBX's own bans by identity); for a router-feed key, the
 * decision-log version and time of its last fetch; for a merging key, the merged CIDRs it was last
 * served (after a restart they are still deleted when they are no longer sent). Written by the web thread, read by workers.
 */
export const keyDeliveryStateMigration = sqlMigration(
  13,
  'per-key delivery state: capped-out entries and last feed fetch',
  `
    CREATE TABLE key_delivery_state (
      key_id INTEGER PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
      cap INTEGER,
      left_out TEXT NOT NULL DEFAULT '{}',
      left_out_own TEXT NOT NULL DEFAULT '[]',
      feed_version INTEGER,
      feed_at INTEGER,
      served_aggregates TEXT NOT NULL DEFAULT '[]'
    );
  `,
);
