import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { openTempDb, type TempDb } from '../../test-support/temp-db.ts';
import { absorbImportedBans } from './ban-import-absorb.ts';
import { planBanImport } from './ban-import-apply.ts';
import type { ImportedBan } from './ban-import.ts';
import { writeBanImport, type WrittenImport } from './ban-import-write.ts';
import { BanStore } from '../bans/index.ts';

const BY = 'tester (import)';
const ban = (value: string, seconds: number | null, reason: string): ImportedBan => ({
  line: 1,
  value,
  seconds,
  reason,
  services: null,
});

/** Resolves once every ban of the import is handed over to the store (its timers are unref'd: keep the loop up). */
const absorbed = (store: BanStore, written: WrittenImport) =>
  new Promise<void>((resolve) => {
    const keepAlive = setInterval(() => {}, 1000);
    absorbImportedBans(store, written, () => {
      clearInterval(keepAlive);
      resolve();
    });
  });

describe('taking an import into the web thread', () => {
  let t: TempDb;
  let clock: ManualClock;
  beforeEach(() => {
    t = openTempDb();
    clock = new ManualClock(Date.parse('2026-11-28T00:00:00Z'));
  });
  afterEach(() => t.dispose());

  const VALUES = Array.from({ length: 64 }, (_, i) => `203.0.113.${i}`);

  async function importAll(seconds: number | null, reason: string): Promise<WrittenImport> {
    const { plan } = planBanImport(
      t.db,
      VALUES.map((value) => ban(value, seconds, reason)),
      clock.now(),
    );
    const written = await writeBanImport(t.db, plan, clock.now(), BY);
    assert.ok(written, `the ${reason} import wrote its bans`);
    return written;
  }

  // Under load the hand-over of an earlier import (spread over event-loop turns) can still be
  // pending when a later import that extends the same addresses is taken in: ban-transfer's
  // "permanent" import then saw the old 7191s for good.
  test('a hand-over that arrives late never brings back the bans a later import replaced', async () => {
    const store = new BanStore(t.db, clock);
    const first = await importAll(7200, 'two hours');
    const firstDone = absorbed(store, first); // reads every row now, hands them over group by group
    await importAll(null, 'permanent');
    store.reload(); // what the web thread knows now: the permanent bans (as a 'bans-reloaded' event does)
    assert.equal(store.get('manual', VALUES.at(-1)!)?.reason, 'permanent');
    await firstDone;
    const reasons = new Set(VALUES.map((value) => store.get('manual', value)?.reason));
    assert.deepEqual([...reasons], ['permanent']);
  });

  test('a ban lifted before its hand-over is not taken in', async () => {
    const store = new BanStore(t.db, clock);
    const written = await importAll(3600, 'scanners');
    const done = absorbed(store, written);
    const handedOver = VALUES.filter((value) => store.get('manual', value));
    assert.ok(handedOver.length < VALUES.length, 'the hand-over is spread over turns');
    t.db.prepare("UPDATE firewall_bans SET lifted_at = ?, lifted_by = 'admin'").run(clock.now());
    await done;
    assert.deepEqual(
      VALUES.filter((value) => store.get('manual', value)),
      handedOver,
    );
  });

  test('the hand-over in order takes every ban in', async () => {
    const store = new BanStore(t.db, clock);
    await absorbed(store, await importAll(3600, 'scanners'));
    assert.equal(VALUES.filter((value) => store.get('manual', value)?.reason === 'scanners').length, VALUES.length);
  });
});
