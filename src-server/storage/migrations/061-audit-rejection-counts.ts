import { sqlMigration } from './migration.ts';

/**
 * Repeated rejections share one audit row (audit/recorder.ts): `count` attempts from `at` (the first)
 * to `last_at` (the last). Writes and rows from before this step keep count 1 and no `last_at`.
 */
export const auditRejectionCountsMigration = sqlMigration(
  61,
  'audit log: coalesced rejections (count, last_at)',
  `
      ALTER TABLE audit_log ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE audit_log ADD COLUMN last_at INTEGER;  -- epoch ms of the last attempt; null: same as at
    `,
);
