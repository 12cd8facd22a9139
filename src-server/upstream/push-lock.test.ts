import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BACKGROUND_BUSY_WAIT_MS } from '../storage/background-write.ts';
import { openDatabase } from '../storage/database.ts';
import { recordLockWaits } from '../test-support/lock-waits.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { waitUntil } from '../test-support/wait.ts';

const V3 = '/pbxcore/api/v3/';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A worker's long write (an import) holds SQLite's write lock. Bans made meanwhile (a worker's
 * manual bans, re-read on the web thread) must be queued without the web thread sitting out the
 * connection's 5 s busy_timeout, and reach the LAPI once the lock is free, each once.
 */
describe('push: bans made while another connection holds the write lock', { timeout: 60_000 }, () => {
  let fake: Server;
  let pbx: TestServer;
  const stored: string[] = [];

  before(async () => {
    // A stand-in LAPI that takes every alert (the real one is in e2e/crowdsec-lapi.test.ts).
    fake = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/v1/watchers/login')
          return res.end(JSON.stringify({ expire: new Date(Date.now() + 3600_000).toISOString(), token: 't' }));
        if (req.method === 'POST' && req.url === '/v1/alerts') {
          const alerts = JSON.parse(body) as Array<{ decisions: Array<{ value: string }> }>;
          stored.push(...alerts.map((a) => a.decisions[0]!.value));
          res.writeHead(201);
          return res.end(JSON.stringify(alerts.map((_, i) => String(i + 1))));
        }
        res.writeHead(404);
        res.end('{"message":"not here"}');
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', () => r()));
    pbx = await startTestServer();
    const saved = await pbx.call(`${V3}crowdsec-link`, {
      method: 'PUT',
      body: {
        enabled: true,
        url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`,
        siteName: 'site-lock',
        machineLogin: 'm',
        machinePassword: 'p',
        shareManual: true,
      },
    });
    assert.equal(saved.status, 200, saved.text);
  });
  after(async () => {
    await pbx.close();
    fake.closeAllConnections();
    await new Promise<void>((r) => fake.close(() => r()));
  });

  test('the web thread never waits out the lock; the entries wait in memory, then reach the queue and the LAPI once', async () => {
    const { db, bus, crowdsecLink } = pbx.server.services;
    const values = ['192.0.2.61', '192.0.2.62', '192.0.2.63'];
    const other = openDatabase(join(pbx.dataDir, 'pbx.sqlite'));
    // As firewall:banIp does in a worker: the ban rows are committed, then another worker's import takes the lock.
    const insert = other.prepare(
      "INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, services, banned_by) VALUES ('manual', ?, " +
        "'lock test', ?, ?, NULL, 'admin')",
    );
    for (const value of values) insert.run(value, Date.now(), Date.now() + 3600_000);
    const queuedRows = () => (db.prepare('SELECT COUNT(*) AS n FROM crowdsec_push_queue').get() as { n: number }).n;
    const rowsBefore = queuedRows();

    other.exec('BEGIN IMMEDIATE');
    const lockWaits = recordLockWaits(db);
    try {
      for (const ip of values) {
        const before = lockWaits.waits.length;
        bus.emit({ type: 'bans-added', ip });
        const emitted = lockWaits.waits.slice(before);
        assert.ok(
          emitted.every((wait) => wait.ms <= BACKGROUND_BUSY_WAIT_MS),
          `a ban event was let wait ${Math.max(...emitted.map((wait) => wait.ms))} ms for the lock`,
        );
      }
      assert.ok(lockWaits.waits.length > 0, 'the ban events met the held lock');
      // Several write retries (each meeting the lock) fall in this time, and the pusher's runs.
      const afterEvents = lockWaits.waits.length;
      await waitUntil('three write retries', () => lockWaits.waits.length >= afterEvents + 3);
      assert.equal(crowdsecLink.queue.waiting, values.length, 'the entries wait in memory');
      assert.equal(crowdsecLink.queue.length, values.length, 'and count in the queue length');
      assert.equal(stored.length, 0, 'nothing unwritten is sent');
    } finally {
      lockWaits.stop();
      other.exec('COMMIT');
      other.close();
    }
    // Nothing the web thread did while the lock was held sat out the connection's 5 s busy_timeout.
    assert.ok(
      lockWaits.longest() <= BACKGROUND_BUSY_WAIT_MS,
      `the web thread was let wait ${lockWaits.longest()} ms for the lock`,
    );

    await waitUntil('each ban reached the LAPI', () => stored.length >= values.length);
    assert.deepEqual([...stored].sort(), values, 'each ban reached the LAPI');
    assert.equal(crowdsecLink.queue.waiting, 0);
    // The LAPI has them before the pusher hears its answer and deletes the rows: wait for that too.
    await waitUntil('the queue emptied once sent', () => queuedRows() <= rowsBefore);
    await sleep(500);
    assert.equal(stored.length, values.length, 'each was sent once');
  });
});
