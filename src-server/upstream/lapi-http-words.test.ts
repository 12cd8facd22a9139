import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { LapiError, lapiRequest } from './lapi-http.ts';

test('a LAPI that is not running is said in words, not as a socket code', async () => {
  // A port that was just free: nothing listens there.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const error = await lapiRequest({ method: 'GET', baseUrl: `http://127.0.0.1:${port}/`, path: 'v1/alerts' }).then(
    () => assert.fail('answered'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof LapiError);
  assert.equal(error.kind, 'unreachable');
  assert.equal(
    error.message,
    `The LAPI at http://127.0.0.1:${port} is unreachable: nothing answers on that address and port (is CrowdSec ` +
      'running, and listening there?).',
  );
  assert.doesNotMatch(error.message, /ECONNREFUSED/);
});
