import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BACKGROUND_BUSY_WAIT_MS } from '../../storage/background-write.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { poll } from '../../test-support/bouncer.ts';
import { recordLockWaits } from '../../test-support/lock-waits.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { waitUntil } from '../../test-support/wait.ts';

const PING = '/pbxcore/api/v3/system:ping';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

/** Reads the file through a connection of its own, as an operator's sqlite3 would. */
function readFile<T>(sql: string, ...params: unknown[]): T {
  const reader = new Database(join(t.dataDir, 'pbx.sqlite'), { readonly: true });
  try {
    return reader.prepare(sql).get(...params) as T;
  } finally {
    reader.close();
  }
}

test(
  "a write lock held by another connection delays the web thread's writes but never stops the " +
    'server, and nothing pending is lost',
  async () => {
    const { db, firewall } = t.server.services;
    const { id, key } = createTestApiKey(db);
    await poll(t, key);
    const pollsBefore = await waitUntil(
      "the first poll's statistics are flushed",
      () => readFile<{ polls: number } | undefined>('SELECT polls FROM bouncer_cursors WHERE key_id = ?', id)?.polls,
    );

    // Another process (an import, sqlite3 by hand) holds the write lock for several flush ticks.
    const locker = new Database(join(t.dataDir, 'pbx.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    const lockWaits = recordLockWaits(db);
    try {
      for (let i = 0; i < 3; i++) await poll(t, key);
      assert.ok(
        lockWaits.longest() <= BACKGROUND_BUSY_WAIT_MS,
        `a write was let wait ${lockWaits.longest()} ms for the lock: polls are answered while it is held`,
      );
      // A refused poll (written through at once) and failures that end in a ban (a bus handler's write).
      assert.equal(
        (
          await t.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', {
            headers: { 'X-Api-Key': 'f'.repeat(64) },
          })
        ).status,
        401,
      );
      const { maxretry } = firewall!.state.settings;
      for (let i = 0; i < maxretry; i++)
        t.server.services.bus.emit({
          type: 'security-failure',
          category: 'sip',
          ip: '192.0.2.77',
          reason: 'test failure',
        });
      assert.equal(
        firewall!.bans.get('sip', '192.0.2.77'),
        undefined,
        'the ban could not be stored while the lock was held',
      );
      const flushesBefore = lockWaits.waits.filter((wait) => wait.stack.includes('CursorStore.flush')).length;
      await waitUntil(
        'two more flush ticks fail with SQLITE_BUSY',
        () => lockWaits.waits.filter((wait) => wait.stack.includes('CursorStore.flush')).length >= flushesBefore + 2,
      );
      assert.ok(lockWaits.longest() <= BACKGROUND_BUSY_WAIT_MS, 'each waited only briefly');
      assert.equal((await t.call(PING)).status, 200, 'the server is still up');
      assert.equal(
        readFile<{ polls: number }>('SELECT polls FROM bouncer_cursors WHERE key_id = ?', id).polls,
        pollsBefore,
        'nothing was written meanwhile',
      );
      assert.equal(
        readFile<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE kind = 'rejected-key'").n,
        0,
        'the audit row waits too',
      );
    } finally {
      lockWaits.stop();
      locker.exec('ROLLBACK');
      locker.close();
    }

    // The next flush tick finds the lock free.
    const polls = () => readFile<{ polls: number }>('SELECT polls FROM bouncer_cursors WHERE key_id = ?', id).polls;
    await waitUntil('the next flush tick', () => polls() > pollsBefore);
    assert.equal(polls(), pollsBefore + 3, 'the renewals kept in memory were written');
    await waitUntil(
      'the audit log kept the refused key for a later flush',
      () => readFile<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE kind = 'rejected-key'").n > 0,
    );
    const rejection = readFile<{ count: number } | undefined>(
      "SELECT count FROM bouncer_rejections WHERE ip = '127.0.0.1'",
    );
    assert.ok(rejection && rejection.count >= 1, 'the refused poll was written at a later flush');
    assert.equal(
      readFile<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE kind = 'rejected-key'").n,
      1,
      'the audit log kept the refused key for a later flush',
    );
    // The failures were kept: the next one bans at once.
    t.server.services.bus.emit({ type: 'security-failure', category: 'sip', ip: '192.0.2.77', reason: 'test failure' });
    assert.ok(firewall!.bans.get('sip', '192.0.2.77'), 'the ban is stored once the lock is free');
    assert.ok(readFile('SELECT 1 FROM firewall_bans WHERE ip = ? AND category = ?', '192.0.2.77', 'sip'));
  },
);
