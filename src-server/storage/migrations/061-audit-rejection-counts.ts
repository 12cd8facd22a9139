import type { Migration } from './migration.ts';

/**
 * Repeated rejections share one audit row (audit/recorder.ts): `count` attempts from `at` (the first)
 * to `last_at` (the last). Writes and rows from before this step keep count 1 and no `last_at`.
 */
export const auditRejectionCountsMigration: Migration = {
  version: 61,
  name: 'audit log: coalesced rejections (count, last_at)',
  up(db) {
    db.exec(`
      ALTER TABLE audit_log ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE audit_log ADD COLUMN last_at INTEGER;  -- epoch ms of the last attempt; null: same as at
    `);
  },
};
