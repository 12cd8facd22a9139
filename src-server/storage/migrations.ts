import type { Db } from './database.ts';
import { allMigrations } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';

export type { Migration };

/**
 * Applies every migration not yet recorded, in version order, each in its own transaction.
 * Applied versions are recorded one by one (not as a single counter) so features can add
 * steps in their own ranges without renumbering each other's.
 */
export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const ran: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      m.up(db);
      record.run(m.version, m.name, new Date().toISOString());
    })();
    ran.push(m.version);
    if (m.compactAfter) {
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    }
  }
  return ran;
}
