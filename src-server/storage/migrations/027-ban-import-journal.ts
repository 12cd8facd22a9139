import { sqlMigration } from './migration.ts';

/**
 * A bulk import is written in slices (short write locks, so a filter save never waits for the
 * whole list), and stays all or nothing through a journal: `ban_import_journal` holds one row per
 * import being written, each of its bans carries `import_id`, and an import whose row is still
 * there at start-up was cut short and is undone (firewall/transfer/ban-import-write.ts). AUTOINCREMENT: an
 * id is never reused, so undoing one import can never touch the rows of an earlier one.
 */
export const banImportJournalMigration = sqlMigration(
  27,
  'bulk ban imports written in slices: import_id and the journal of unfinished imports',
  `
      ALTER TABLE firewall_bans ADD COLUMN import_id INTEGER;
      CREATE TABLE ban_import_journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at INTEGER NOT NULL,
        banned_by TEXT NOT NULL,
        after_id INTEGER NOT NULL
      );
    `,
);
