import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { createServer } from '../index.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

describe('createServer start and stop', () => {
  const dataDir = makeTempDir('pbx-start-stop-');
  after(() => removeTempDir(dataDir));

  it('stops every area it started, the database last', async () => {
    const logs = captureLogs();
    const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logger: logs.logger, workerIdleThreads: 1 });
    await server.start();
    const { db, queue } = server.services;
    assert.match(logs.lines.at(-1)!.msg, /^server listening on http:\/\/127\.0\.0\.1:\d+$/);
    await server.stop();
    assert.equal(db.open, false);
    assert.equal(queue.threads, 0);
    assert.throws(() => server.services, /not started/);
    assert.equal(logs.lines.at(-1)!.msg, 'server stopped');
  });

  it('rejects a start whose port is taken; stop() then undoes what had started', async () => {
    const taken = createTcpServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const logs = captureLogs();
      const port = (taken.address() as AddressInfo).port;
      const server = createServer({ host: '127.0.0.1', port, dataDir, logger: logs.logger, workerIdleThreads: 1 });
      await assert.rejects(server.start(), { code: 'EADDRINUSE' });
      const { db } = server.services; // built before the listener, as before
      assert.ok(!logs.lines.some((line) => line.msg.startsWith('server listening')));
      await server.stop();
      assert.equal(db.open, false);
      assert.equal(logs.lines.at(-1)!.msg, 'server stopped');
    } finally {
      taken.close();
    }
  });
});
