import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { poll } from '../test-support/bouncer.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';

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
    await sleep(1200); // the first poll's statistics are flushed
    const pollsBefore = readFile<{ polls: number }>('SELECT polls FROM bouncer_cursors WHERE key_id = ?', id).polls;

    // Another process (an import, sqlite3 by hand) holds the write lock for several flush ticks.
    const locker = new Database(join(t.dataDir, 'pbx.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await poll(t, key);
        assert.ok(performance.now() - started < 1000, 'a poll is answered at once while the lock is held');
      }
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
      await sleep(2500); // two or more flush ticks fail with SQLITE_BUSY
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
      locker.exec('ROLLBACK');
      locker.close();
    }

    await sleep(1500); // the next flush tick finds the lock free
    assert.equal(
      readFile<{ polls: number }>('SELECT polls FROM bouncer_cursors WHERE key_id = ?', id).polls,
      pollsBefore + 3,
      'the renewals kept in memory were written',
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
