// Benchmark: GET lists of 100 extensions through the queue and worker pool, against the same
// handler called in-process behind a plain HTTP server (the baseline). Prints JSON.
//   node --import tsx bench/v3-throughput.ts [durationMs]
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '../src-server/index.ts';
import { renderEnvelope } from '../src-server/wire/envelope.ts';
import { extensionsActions } from '../src-server/resources/extensions/actions.ts';
import { extensionsDeclaration } from '../src-server/resources/extensions/declaration.ts';
import type { ActionContext } from '../src-server/resource-kit/types.ts';
import { openDatabase } from '../src-server/storage/database.ts';
import { runLoadInChild } from './support/run-load.ts';

const durationMs = Number(process.argv[2] ?? 5000);
const CONNECTIONS = 8;
const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-'));

const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn' });
await server.start();
const insert = server.services.db.prepare(
  'INSERT INTO extensions (number, username, callerid, secret) VALUES (?, ?, ?, ?)',
);
server.services.db.transaction(() => {
  for (let i = 0; i < 100; i++) insert.run(String(200 + i), `User ${i}`, `Caller ${i}`, 'secret-secret');
})();

// Baseline: the same action and envelope, in-process, no queue, no worker.
const db = openDatabase(join(dataDir, 'pbx.sqlite'));
const baseline = createHttpServer(async (_req, res) => {
  const ctx = {
    db,
    resource: extensionsDeclaration,
    operation: 'getList',
    verb: 'GET',
    input: {},
    query: {},
    body: {},
    headers: {},
    session: null,
    canReadSensitive: true,
    pid: process.pid,
    now: () => Date.now(),
    emit: () => undefined,
  } satisfies ActionContext;
  const rendered = renderEnvelope(await extensionsActions.getList!(ctx), {
    function: 'getList',
    processor: 'ExtensionsManagementProcessor',
    pid: process.pid,
  });
  res.writeHead(rendered.status, { 'content-type': 'application/json; charset=utf-8', 'e-tag': `"${rendered.hash}"` });
  res.end(rendered.body);
});
await new Promise<void>((r) => baseline.listen(0, '127.0.0.1', r));
const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}/`;

const path = '/pbxcore/api/v3/extensions';
// Both paths warm before they are measured: the workers' code compiled by the JIT, and every thread
// the pool grows to under this load started (a cold first second would count against the pool alone).
const WARM_UP_MS = 2000;
await runLoadInChild(`${server.url}${path}`, CONNECTIONS, WARM_UP_MS);
await runLoadInChild(baselineUrl, CONNECTIONS, WARM_UP_MS);
const pool = await runLoadInChild(`${server.url}${path}`, CONNECTIONS, durationMs);
const inProcess = await runLoadInChild(baselineUrl, CONNECTIONS, durationMs);
// Latency below saturation: the same 8 connections offered half the pool's closed-loop throughput.
const PACED_RATE = Math.max(50, Math.round(pool.requestsPerSecond / 2 / 50) * 50);
const poolPaced = await runLoadInChild(`${server.url}${path}`, CONNECTIONS, durationMs, {}, PACED_RATE);
const inProcessPaced = await runLoadInChild(baselineUrl, CONNECTIONS, durationMs, {}, PACED_RATE);

baseline.close();
db.close();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

const summary = {
  benchmark: 'v3-throughput',
  request: `GET ${path} (100 records)`,
  connections: CONNECTIONS,
  durationMs,
  pool: { requestsPerSecond: pool.requestsPerSecond, p50Ms: pool.p50Ms, p99Ms: pool.p99Ms, errors: pool.errors },
  baseline: {
    requestsPerSecond: inProcess.requestsPerSecond,
    p50Ms: inProcess.p50Ms,
    p99Ms: inProcess.p99Ms,
    errors: inProcess.errors,
  },
  throughputRatio: Math.round((pool.requestsPerSecond / inProcess.requestsPerSecond) * 100) / 100,
  pacedAtRequestsPerSecond: PACED_RATE,
  poolPaced: {
    requestsPerSecond: poolPaced.requestsPerSecond,
    p50Ms: poolPaced.p50Ms,
    p99Ms: poolPaced.p99Ms,
    errors: poolPaced.errors,
  },
  baselinePaced: {
    requestsPerSecond: inProcessPaced.requestsPerSecond,
    p50Ms: inProcessPaced.p50Ms,
    p99Ms: inProcessPaced.p99Ms,
    errors: inProcessPaced.errors,
  },
  targets: { throughputRatioAtLeast: 0.5, poolP50MsBelow: 2 },
};
console.log(JSON.stringify(summary, null, 2));
