import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { openDatabase } from '../storage/database.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { banThroughFailures, poll, values } from '../test-support/bouncer.ts';
import { useTestServer } from '../test-support/server.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

// A worker's long write (a large import, a backup restore) holds SQLite's write lock. The decision
// log is written on the web thread: it must neither wait out the lock (every poll would stall) nor
// fail the poll, and the change it could not log must reach the key once the lock is free.
describe('stream polls while another connection holds the write lock', () => {
  const clock = new ManualClock(Date.now());
  const t = useTestServer({ clock });

  test('a poll is answered at once from the last logged snapshot, and the deletion arrives after', async () => {
    const { key } = createTestApiKey(t.server.services.db, { description: 'edge firewall' });
    banThroughFailures(t, 'sip', '198.51.100.20');
    assert.deepEqual(values((await poll(t, key, '?startup=true')).new), ['198.51.100.20 pbx/sip']);

    const other = openDatabase(join(t.dataDir, 'pbx.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      // The ban runs out: leaving the published set is a change the log must record first.
      clock.advance(366 * DAY_MS);
      const started = performance.now();
      const during = await poll(t, key);
      const waitedMs = performance.now() - started;
      assert.ok(waitedMs < 1000, `the poll waited ${Math.round(waitedMs)} ms for the lock`);
      assert.deepEqual(values(during.new), ['198.51.100.20 pbx/sip'], 'served the last logged snapshot');
      assert.deepEqual(during.deleted, []);
      assert.ok(t.server.services.firewall!.snapshots.deferredBuilds > 0, 'the build was deferred');
    } finally {
      other.exec('COMMIT');
      other.close();
    }

    const afterwards = await poll(t, key);
    assert.deepEqual(afterwards.new, []);
    assert.deepEqual(values(afterwards.deleted), ['198.51.100.20 pbx/sip']);
  });

  test('known keys polling a new version while the lock is held never wait for it; the flush saves them after', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => createTestApiKey(t.server.services.db, { description: `b${i}` }));
    for (const { key } of keys) await poll(t, key);
    banThroughFailures(t, 'sip', '198.51.100.21');
    const version = t.server.services.firewall!.snapshots.get().version;

    const other = openDatabase(join(t.dataDir, 'pbx.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    let elapsedMs: number;
    try {
      const started = performance.now();
      for (const { key } of keys) assert.deepEqual(values((await poll(t, key)).new), ['198.51.100.21 pbx/sip']);
      elapsedMs = performance.now() - started;
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    // Waiting even the short 50 ms for the lock would take at least 2.5 s for these 50 polls.
    assert.ok(elapsedMs < 2000, `50 polls took ${Math.round(elapsedMs)} ms while the lock was held`);

    t.server.services.firewall!.cursors.flush();
    const stored = t.server.services.db
      .prepare('SELECT sent_versions FROM bouncer_cursors WHERE key_id = ?')
      .pluck()
      .get(keys[0]!.id) as string;
    assert.equal(JSON.parse(stored).at(-1), version, 'the flush saved the window once the lock was free');
  });
});
