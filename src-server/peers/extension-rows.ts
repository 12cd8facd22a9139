import type { Db } from '../storage/database.ts';

/** An enabled extension as a picker shows it. */
export interface ExtensionChoice {
  number: string;
  username: string;
  callerid: string;
}

/**
 * The enabled extensions, in number order (`extensions:getForSelect`). The rows are written by the
 * extensions resource's CRUD (resource-kit/crud.ts over its declared table); readers query here so
 * that no SQL sits in resources/.
 */
export function enabledExtensions(db: Db): ExtensionChoice[] {
  return db
    .prepare('SELECT number, username, callerid FROM extensions WHERE disabled = 0 ORDER BY number')
    .all() as ExtensionChoice[];
}

/** An extension as the table holds it: its secret sealed (see storage/migrations/004-sealed-secrets.ts). */
export interface ExtensionRow {
  number: string;
  username: string;
  callerid: string;
  /** Sealed ciphertext; '' when none is set. */
  secret: string;
  disabled: number;
}

/** Every extension, disabled ones too, in number order (the configuration backup). */
export function extensionRows(db: Db): ExtensionRow[] {
  return db
    .prepare(
      "SELECT number, username, callerid, coalesce(secret, '') AS secret, disabled FROM extensions ORDER BY number",
    )
    .all() as ExtensionRow[];
}

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
