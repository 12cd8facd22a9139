import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { openTempDb, type TempDb } from '../../test-support/temp-db.ts';
import { addManualBan, BanStore } from '../bans/index.ts';
import { planBanImport } from './ban-import-apply.ts';
import type { ImportedBan } from './ban-import.ts';
import { IMPORT_SLICE_ROWS, writeBanImport } from './ban-import-write.ts';

const BY = 'tester (import)';
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
const imported = (count: number, seconds = 86_400): ImportedBan[] =>
  Array.from({ length: count }, (_, i) => ({
    line: i + 1,
    value: address(i),
    seconds,
    reason: 'scanner',
    services: null,
  }));
const count = (t: TempDb, where: string, ...params: unknown[]) =>
  t.db
    .prepare(`SELECT COUNT(*) FROM firewall_bans WHERE ${where}`)
    .pluck()
    .get(...params) as number;
const inForce = (t: TempDb, now: number) => count(t, 'lifted_at IS NULL AND expires_at > ?', now);

/**
 * Another writer on its own thread and connection (as a worker saving a filter is): it takes the
 * write lock every few milliseconds and, each time it holds it, notes the highest ban id then
 * committed (where the import had got to).
 */
function lockProber(file: string): { started: Promise<void>; stop: () => Promise<number[]> } {
  const stopFlag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.file);
     db.pragma('busy_timeout = 60000');
     const highest = db.prepare('SELECT COALESCE(MAX(id), 0) FROM firewall_bans').pluck();
     const seen = new Set();
     while (Atomics.load(workerData.stop, 0) === 0) {
       db.exec('BEGIN IMMEDIATE');
       seen.add(highest.get());
       db.exec('COMMIT');
       if (seen.size === 1) parentPort.postMessage('started');
       Atomics.wait(workerData.stop, 0, 0, 3);
     }
     db.close();
     parentPort.postMessage([...seen]);`,
    {
      eval: true,
      workerData: { file, stop: stopFlag, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    },
  );
  const started = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  const seen = new Promise<number[]>((resolve) =>
    worker.on('message', (message: unknown) => Array.isArray(message) && resolve(message as number[])),
  );
  return {
    started,
    stop: async () => {
      Atomics.store(stopFlag, 0, 1);
      Atomics.notify(stopFlag, 0);
      return seen;
    },
  };
}

describe('a bulk import written in slices, all or nothing', () => {
  let t: TempDb;
  const clock = new ManualClock(Date.now());
  beforeEach(() => (t = openTempDb('pbx-import-write-')));
  afterEach(() => t.dispose());

  test('100,000 bans: another writer gets the lock between the slices, and every ban is written', async () => {
    const now = clock.now();
    const { plan } = planBanImport(t.db, imported(100_000), now);
    const prober = lockProber(t.file);
    await prober.started;
    const written = await writeBanImport(t.db, plan, now, BY);
    const seen = await prober.stop();
    assert.ok(written);
    assert.equal(count(t, 'import_id = ?', written.importId), 100_000);
    assert.equal(written.toId - written.fromId + 1, 100_000);
    assert.equal(t.db.prepare('SELECT COUNT(*) FROM ban_import_journal').pluck().get(), 0, 'the import is finished');
    // Held from the first slice to the last, the lock would show the other writer none of the import or all of it.
    const midway = seen.filter((id) => id >= written.fromId && id < written.toId);
    assert.ok(
      midway.length > 0,
      `the other writer got the lock only at ids ${seen.join(', ')}: the import held it throughout`,
    );
  });

  test('a failure in a late slice undoes everything: new bans gone, the bans it replaced in force again', async () => {
    const now = clock.now();
    // Manual bans in force for two slices' worth of values, which the import extends (ends and replaces).
    const replaced = IMPORT_SLICE_ROWS + 1000;
    t.db.transaction(() => {
      for (let i = 0; i < replaced; i++)
        addManualBan(t.db, { value: address(i), seconds: 3600, reason: 'old', services: null, by: 'admin' }, now);
    })();
    const { plan } = planBanImport(t.db, imported(3 * IMPORT_SLICE_ROWS), now);
    assert.equal(plan.extended, replaced);
    // SQLite itself fails the second slice of ends (as a full disk would), after the first was committed.
    const last = address(replaced - 1);
    t.db.exec(
      `CREATE TEMP TRIGGER fail_late BEFORE UPDATE OF lifted_at ON main.firewall_bans
       WHEN OLD.ip = '${last}' AND NEW.lifted_at IS NOT NULL BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END`,
    );
    await assert.rejects(writeBanImport(t.db, plan, now, BY), /disk full \(test\)/);
    assert.equal(count(t, 'import_id IS NOT NULL'), 0, 'no imported row remains');
    assert.equal(inForce(t, now), replaced, 'every replaced ban is in force again');
    assert.equal(count(t, "reason = 'old' AND lifted_at IS NULL"), replaced);
    assert.equal(t.db.prepare('SELECT COUNT(*) FROM ban_import_journal').pluck().get(), 0);
  });

  test('an import cut short by the process ending is undone at the next start, before any ban is read', () => {
    const now = clock.now();
    addManualBan(t.db, { value: address(0), seconds: 3600, reason: 'old', services: null, by: 'admin' }, now);
    const before = count(t, '1 = 1');
    // What a killed process leaves: the journal row, two slices, the first ban ended, no finish.
    const importId = BanStore.beginImport(t.db, now, BY);
    const slice = imported(2000).map((ban) => ({ ...ban, expiresAt: now + 86_400_000 }));
    BanStore.insertImportSlice(t.db, importId, slice.slice(0, 1000), now, BY);
    BanStore.insertImportSlice(t.db, importId, slice.slice(1000), now, BY);
    BanStore.endReplacedByImport(t.db, importId, [address(0)], now, BY);
    assert.equal(inForce(t, now), 2000, 'meanwhile, the old ban is ended and 2,000 new ones are in force');

    const store = new BanStore(t.db, clock);
    assert.equal(count(t, '1 = 1'), before, 'the rows it wrote are gone');
    assert.deepEqual(
      store.active().map((ban) => [ban.ip, ban.reason]),
      [[address(0), 'old']],
      'the web thread reads the old ban, in force again',
    );
    assert.equal(t.db.prepare('SELECT COUNT(*) FROM ban_import_journal').pluck().get(), 0);
    // A later import's id is new: undoing it could never reach the rows of one finished before.
    assert.ok(BanStore.beginImport(t.db, now, BY) > importId);
  });
});
