import type { Migration } from './migration.ts';

/** Per-key bouncer export option: publish ranges as single addresses (nftables-mode clients). */
export const bouncerExportOptionsMigration: Migration = {
  version: 21,
  name: 'api key option expand_ranges',
  up(db) {
    db.exec('ALTER TABLE api_keys ADD COLUMN expand_ranges INTEGER NOT NULL DEFAULT 0');
  },
};
