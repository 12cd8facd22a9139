import type { Db } from '../database.ts';

/** One schema step. Versions are unique; each feature owns a range (see migrations/index.ts). */
export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
  /**
   * Rewrite the whole file after this step (VACUUM, then truncate the WAL): for steps that replace
   * sensitive values, whose old bytes could otherwise survive in free pages and old WAL frames.
   */
  compactAfter?: boolean;
}

/** A step that is one SQL script, run as it is written. */
export function sqlMigration(version: number, name: string, sql: string): Migration {
  return { version, name, up: (db) => db.exec(sql) };
}

/**
 * Rewrites every network filter's addresses: `permit` through `permitOf`, each `deny` entry through
 * `denyEntryOf` (duplicates dropped). Only the rows that change are written.
 */
export function rewriteFilterAddresses(
  db: Db,
  permitOf: (permit: string) => string,
  denyEntryOf: (entry: string) => string,
): void {
  const filters = db.prepare('SELECT id, permit, deny FROM network_filters').all() as Array<{
    id: number;
    permit: string;
    deny: string;
  }>;
  const update = db.prepare('UPDATE network_filters SET permit = ?, deny = ? WHERE id = ?');
  for (const { id, permit, deny } of filters) {
    const next = {
      permit: permitOf(permit),
      deny: [...new Set(deny.split(',').map((e) => denyEntryOf(e.trim())))].join(','),
    };
    if (next.permit !== permit || next.deny !== deny) update.run(next.permit, next.deny, id);
  }
}
