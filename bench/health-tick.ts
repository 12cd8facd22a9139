// Benchmark: one health tick (every check) on a busy site, and the surge watch's cost per event.
// 500 bouncer keys with cursors, the push queue full (100,000 entries, its once-a-minute COUNT
// timed apart), 20,000 failures recorded by the surge watch. Prints JSON.
//   node --import tsx bench/health-tick.ts [keys]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../src-server/index.ts';
import { SurgeWatch } from '../src-server/health/surge.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';

const KEYS = Number(process.argv[2] ?? 500);
const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-health-'));
const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent', workerIdleThreads: 1 });
await server.start();
try {
  const { db, firewall, health, crowdsecLink } = server.services;
  for (let i = 0; i < KEYS; i++) {
    const { id } = createTestApiKey(db, { description: `site ${i}` });
    if (i % 2) firewall.cursors.fetched(id, `10.0.${i >> 8}.${i & 255}`);
    else firewall.cursors.record(id, 1, `10.0.${i >> 8}.${i & 255}`, 0, 0, true);
  }
  const insert = db.prepare(
    "INSERT INTO crowdsec_push_queue (kind, value, scope, scenario, reason, expires_at, queued_at) VALUES ('add', ?, 'Ip', 'pbx/sip', '', ?, ?)",
  );
  db.transaction(() => {
    for (let i = 0; i < 100_000; i++) insert.run(`198.18.${i >> 8}.${i & 255}`, Date.now() + 3_600_000, Date.now());
  })();
  firewall.bans.ban('sip', '203.0.113.1', 'bench', 3600);

  const ticks = 200;
  let start = performance.now();
  for (let i = 0; i < ticks; i++) health.evaluate();
  const tickMs = (performance.now() - start) / ticks;

  start = performance.now();
  const queued = crowdsecLink.queue.length;
  const countMs = performance.now() - start;

  const surge = new SurgeWatch(Date.now());
  start = performance.now();
  for (let i = 0; i < 20_000; i++) surge.record('failures', `192.0.2.${i % 250}`, 'sip', Date.now());
  const perEventUs = ((performance.now() - start) * 1000) / 20_000;
  start = performance.now();
  surge.evaluate(Date.now());
  const surgeEvaluateMs = performance.now() - start;

  console.log(
    JSON.stringify(
      {
        keys: KEYS,
        tickMs: Number(tickMs.toFixed(3)),
        queueCountMs: Number(countMs.toFixed(2)),
        queued,
        surgeRecordUs: Number(perEventUs.toFixed(2)),
        surgeEvaluateMs: Number(surgeEvaluateMs.toFixed(3)),
        failing: health.board.list().length,
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
