import type { Migration } from './migration.ts';

/**
 * The bouncer a key was created for (iptables, nftables or the custom bouncer), so Rotate and
 * Details offer the configuration that fits it; null for keys that are not a bouncer's.
 */
export const apiKeyBouncerSetupMigration: Migration = {
  version: 14,
  name: 'api key bouncer_setup',
  up(db) {
    db.exec('ALTER TABLE api_keys ADD COLUMN bouncer_setup TEXT');
  },
};
