import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer } from '../test-support/server.ts';

/** Every route of the three bundled example modules, one request each, as a caller on loopback. */
const MODULE_ROUTES = [
  '/pbxcore/api/modules/ExampleCallback/ping',
  '/pbxcore/api/modules/ExampleCallback/whoami',
  '/pbxcore/api/example-routes/status',
  '/pbxcore/api/v3/module-example-tasks/tasks',
];

describe('module loading in workers', () => {
  // Short, so the pool's idle time can outlast it; not so short that a worker started on a loaded machine misses
  // it while loading normally (at 300 ms one did, beside two busy loops: its module was dropped, its job failed).
  const loadTimeoutMs = 1500;
  const t = useTestServer({ moduleLoadTimeoutMs: loadTimeoutMs, exampleModules: true });

  it('finishes before a worker takes jobs, so a pool left idle longer than the load timeout serves every module', async () => {
    // Idle workers used to be parked right after start (piscina's Atomics.wait), with their module
    // imports half done; the first job woke them after the timeout had expired and the module was dropped.
    await new Promise((r) => setTimeout(r, loadTimeoutMs + 1000));
    for (let round = 0; round < 2; round++) {
      // Three at once, so every one of the three workers answers at least one.
      const answers = await Promise.all(
        MODULE_ROUTES.flatMap((path) => [path, path, path]).map((path) => t.call(path)),
      );
      for (const [i, res] of answers.entries())
        assert.equal(res.status, 200, `${MODULE_ROUTES[Math.floor(i / 3)]}: ${res.text}`);
    }
    const parked = t.server.services.db.prepare('SELECT COUNT(*) AS n FROM failed_jobs').get() as { n: number };
    assert.equal(parked.n, 0, 'no job was parked');
  });
});
