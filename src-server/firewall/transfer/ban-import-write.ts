import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../storage/database.ts';
import { BanStore } from '../bans/index.ts';
import { until, type ImportPlan } from './ban-import-apply.ts';

/**
 * Bans written per transaction. 100,000 bans in one transaction held SQLite's write lock for about
 * 190 ms (four indexes; 400 ms and more on a busy machine), and a filter save arriving meanwhile
 * waited all of it; a slice holds it about 5 ms.
 */
export const IMPORT_SLICE_ROWS = 2500;
/**
 * Pause between two slices: longer than the steps in which SQLite's busy handler sleeps at first
 * (1, 2, 5, 10, 15, 20 ms), so a writer that waits for the lock gets it before the next slice.
 */
const SLICE_PAUSE_MS = 25;

/** Where an import's rows are: for the web thread to take them in (`bans-imported`). */
export interface WrittenImport {
  importId: number;
  fromId: number;
  toId: number;
}

/**
 * Writes a plan in slices, all or nothing: each new or longer ban is a manual ban, and a manual
 * ban it replaces ends, lifted by the import, so the history shows both. The import's journal row
 * stays until the last slice is written: a failure undoes what was written, and an import cut
 * short by the process ending is undone at the next start (BanStore). Returns where its rows are,
 * undefined when nothing was to be written.
 */
export async function writeBanImport(
  db: Db,
  plan: ImportPlan,
  now: number,
  by: string,
): Promise<WrittenImport | undefined> {
  const written = plan.bans.filter((ban) => ban.action !== 'keep');
  if (!written.length) return undefined;
  const importId = db.transaction(() => BanStore.beginImport(db, now, by))();
  try {
    let fromId = Infinity;
    let toId = 0;
    for (let at = 0; at < written.length; at += IMPORT_SLICE_ROWS) {
      if (at > 0) await sleep(SLICE_PAUSE_MS);
      const slice = written.slice(at, at + IMPORT_SLICE_ROWS).map((ban) => ({ ...ban, expiresAt: until(ban, now) }));
      const ids = db.transaction(() => BanStore.insertImportSlice(db, importId, slice, now, by))()!;
      fromId = Math.min(fromId, ids.first);
      toId = Math.max(toId, ids.last);
    }
    // The bans replaced end only once every new one is written: a value is never without its ban.
    const replacing = written.filter((ban) => ban.action === 'extend').map((ban) => ban.value);
    for (let at = 0; at < replacing.length; at += IMPORT_SLICE_ROWS) {
      await sleep(SLICE_PAUSE_MS);
      const values = replacing.slice(at, at + IMPORT_SLICE_ROWS);
      db.transaction(() => BanStore.endReplacedByImport(db, importId, values, now, by))();
    }
    db.transaction(() => BanStore.finishImport(db, importId))();
    return { importId, fromId, toId };
  } catch (error) {
    // Undone with the full busy wait; if even that fails, the next start undoes it.
    try {
      db.transaction(() => BanStore.undoImport(db, importId))();
    } catch {
      /* left to the start-up undo */
    }
    throw error;
  }
}
