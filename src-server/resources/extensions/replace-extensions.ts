import type { ExtensionRow } from '../../peers/extension-rows.ts';
import type { Db } from '../../storage/database.ts';

/**
 * Replaces every extension (a configuration import, inside its transaction). A secret given in clear is
 * sealed by the table's trigger; one already sealed is stored as it is.
 */
export function replaceExtensions(db: Db, rows: readonly ExtensionRow[]): void {
  db.prepare('DELETE FROM extensions').run();
  const insert = db.prepare(
    'INSERT INTO extensions (number, username, callerid, secret, disabled) VALUES (@number, @username, @callerid, @secret, @disabled)',
  );
  for (const row of rows) insert.run(row);
}
