import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { BACKGROUND_BUSY_WAIT_MS } from '../storage/background-write.ts';
import { openDatabase } from '../storage/database.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { banThroughFailures, poll, values } from '../test-support/bouncer.ts';
import { recordLockWaits } from '../test-support/lock-waits.ts';
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
    const lockWaits = recordLockWaits(t.server.services.db);
    try {
      // The ban runs out: leaving the published set is a change the log must record first.
      clock.advance(366 * DAY_MS);
      const during = await poll(t, key);
      assert.ok(lockWaits.waits.length > 0, 'the poll met the held lock');
      assert.ok(
        lockWaits.longest() <= BACKGROUND_BUSY_WAIT_MS,
        `the poll was let wait ${lockWaits.longest()} ms for the lock (the connection's busy_timeout), not the short wait`,
      );
      assert.deepEqual(values(during.new), ['198.51.100.20 pbx/sip'], 'served the last logged snapshot');
      assert.deepEqual(during.deleted, []);
      assert.ok(t.server.services.firewall!.snapshots.deferredBuilds > 0, 'the build was deferred');
    } finally {
      lockWaits.stop();
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
    const lockWaits = recordLockWaits(t.server.services.db);
    try {
      for (const { key } of keys) assert.deepEqual(values((await poll(t, key)).new), ['198.51.100.21 pbx/sip']);
    } finally {
      lockWaits.stop();
      other.exec('COMMIT');
      other.close();
    }
    // Even the short 50 ms wait, taken by each of these 50 polls, would add up to 2.5 s: they take none
    // (the cursor flush timer's own short waits, if one ticks meanwhile, are not a poll's).
    assert.deepEqual(
      lockWaits
        .inForeground()
        .filter((wait) => wait.ms > 0)
        .map((wait) => wait.stack),
      [],
      'no poll waited for the lock',
    );

    t.server.services.firewall!.cursors.flush();
    const stored = t.server.services.db
      .prepare('SELECT sent_versions FROM bouncer_cursors WHERE key_id = ?')
      .pluck()
      .get(keys[0]!.id) as string;
    assert.equal(JSON.parse(stored).at(-1), version, 'the flush saved the window once the lock was free');
  });
});
