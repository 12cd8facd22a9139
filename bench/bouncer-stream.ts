// Benchmark: the firewall-bouncer decision stream with N active bans (1k, 10k, 100k) and 100 API keys.
// The server runs in a child process (its own core and RSS); this process is the client. Prints JSON.
//   node --import tsx bench/bouncer-stream.ts [durationMs]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childServer, type ChildServer } from './support/child-server.ts';

const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
const SIZES = [1_000, 10_000, 100_000];
const KEYS = 100;
const CURSOR_KEYS = 1_000;
const CONNECTIONS = 8;
const STARTUP_POLLS = 15;

type Command =
  | { cmd: 'seed'; bans: number; keys: number }
  | { cmd: 'keys'; count: number }
  | { cmd: 'memory' }
  | { cmd: 'churn'; count: number }
  | { cmd: 'stop' };

// ---------------------------------------------------------------- server side (child process)
async function serve(): Promise<void> {
  const { createServer } = await import('../src-server/index.ts');
  const { createTestApiKey } = await import('../src-server/test-support/api-keys.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-bouncer-'));
  const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', workers: 1 });
  await server.start();
  const { db, firewall } = server.services;
  const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  let churned = 0;
  const reply = (message: unknown) => process.send!(message);
  const memory = () => {
    // Twice: the first full GC frees objects, the second the buffers they kept alive.
    global.gc?.();
    global.gc?.();
    const m = process.memoryUsage();
    // `external` already includes `arrayBuffers` (every Buffer).
    return { rssMb: m.rss / 2 ** 20, heapUsedMb: m.heapUsed / 2 ** 20, externalMb: m.external / 2 ** 20 };
  };

  process.on('message', async (message: Command) => {
    switch (message.cmd) {
      case 'seed': {
        const started = performance.now();
        db.transaction(() => {
          for (let i = 0; i < message.bans; i++) firewall!.bans.ban(i % 2 ? 'sip' : 'http', ipOf(i), 'bench', 3600);
        })();
        const keys = Array.from(
          { length: message.keys },
          (_, i) => createTestApiKey(db, { description: `bench ${i}` }).key,
        );
        reply({ url: server.url, keys, seedMs: performance.now() - started });
        return;
      }
      case 'keys':
        reply({
          keys: Array.from(
            { length: message.count },
            (_, i) => createTestApiKey(db, { description: `cursor ${i}` }).key,
          ),
        });
        return;
      case 'churn':
        // Membership changes between polls (one ban added, one lifted), so cursors end up at many
        // different versions and the shared deletion log has entries to keep for them.
        for (let i = 0; i < message.count; i++) {
          firewall!.bans.ban('ami', `172.16.${(churned >> 8) & 255}.${churned & 255}`, 'churn', 3600);
          const lifted = ipOf(churned++);
          db.prepare('UPDATE firewall_bans SET lifted_at = ? WHERE ip = ?').run(Date.now(), lifted);
          firewall!.bans.reloadIp(lifted);
        }
        reply({ ok: true });
        return;
      case 'memory':
        reply({
          ...memory(),
          cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
          removedLifetimes: firewall!.log.removedCount,
          cursors: firewall!.cursors.size,
          snapshotBuilds: firewall!.snapshots.builds,
        });
        return;
      case 'stop':
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
        reply({ ok: true });
        process.exit(0);
    }
  });
  reply({ ready: true });
}

// ---------------------------------------------------------------- client side
function startServer(): Promise<ChildServer<Command>> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return childServer<Command>(child);
}

interface PollResult {
  ms: number;
  status: number;
  bytes: number;
}

/**
 * One GET; with `abortAfterHeaders` the body is not read. The server records a cursor only once the
 * whole body was delivered, so polls meant to leave a cursor read it to the end (gzip keeps it small).
 */
function pollOnce(
  agent: Agent | false,
  url: string,
  key: string,
  abortAfterHeaders = false,
  gzip = false,
): Promise<PollResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string> = { 'X-Api-Key': key, ...(gzip ? { 'Accept-Encoding': 'gzip' } : {}) };
    const req = request(url, { agent, headers }, (res) => {
      if (abortAfterHeaders) {
        res.destroy();
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, bytes: 0 });
        return;
      }
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', abortAfterHeaders ? () => undefined : reject);
    req.end();
  });
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function measure(bans: number, durationMs: number): Promise<Record<string, unknown>> {
  const { child, ask } = await startServer();
  const seeded = await ask<{ url: string; keys: string[]; seedMs: number }>({ cmd: 'seed', bans, keys: KEYS });
  const url = `${seeded.url}${STREAM}`;
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

  // startup=true: the full snapshot. The first one also publishes the N decisions to the durable log.
  const first = await pollOnce(agent, `${url}?startup=true`, seeded.keys[0]!);
  const startupTimes: number[] = [];
  for (let i = 0; i < STARTUP_POLLS; i++)
    startupTimes.push((await pollOnce(agent, `${url}?startup=true`, seeded.keys[i % KEYS]!)).ms);
  startupTimes.sort((a, b) => a - b);
  // What a CrowdSec client (Go, which always asks for gzip) receives: the shared compressed snapshot.
  await pollOnce(agent, `${url}?startup=true`, seeded.keys[0]!, false, true); // compresses this snapshot
  const zipped = await pollOnce(agent, `${url}?startup=true`, seeded.keys[1]!, false, true);

  // Ordinary polls: 8 connections in a closed loop, the 100 keys in turn.
  const cpuBefore = (await ask<{ cpuMs: number }>({ cmd: 'memory' })).cpuMs;
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const result = await pollOnce(agent, url, seeded.keys[next++ % KEYS]!);
        latencies.push(result.ms);
        if (result.status !== 200) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const memory = await ask<{ rssMb: number; heapUsedMb: number; snapshotBuilds: number; cpuMs: number }>({
    cmd: 'memory',
  });

  const figures: Record<string, unknown> = {
    bans,
    keys: KEYS,
    seedMs: round(seeded.seedMs),
    startupPoll: {
      firstMs: round(first.ms),
      p50Ms: round(percentile(startupTimes, 50)),
      maxMs: round(startupTimes[startupTimes.length - 1]!),
      bytes: first.bytes,
      gzipBytes: zipped.bytes,
      gzipMs: round(zipped.ms),
    },
    ordinaryPolls: {
      connections: CONNECTIONS,
      polls: latencies.length,
      errors,
      pollsPerSecond: round(latencies.length / seconds),
      p50Ms: round(percentile(latencies, 50), 2),
      p99Ms: round(percentile(latencies, 99), 2),
      megabytesPerSecond: round((latencies.length * first.bytes) / seconds / 2 ** 20),
      /** Server CPU per poll: what the server itself spends, whatever the client and the machine's load. */
      serverCpuMsPerPoll: round((memory.cpuMs - cpuBefore) / Math.max(1, latencies.length), 2),
    },
    serverRssMb: round(memory.rssMb),
    snapshotBuilds: memory.snapshotBuilds,
  };

  agent.destroy();
  if (bans === 100_000) {
    // 1,000 more keys each get a cursor, with membership churn every 10 polls so cursors differ.
    const { keys } = await ask<{ keys: string[] }>({ cmd: 'keys', count: CURSOR_KEYS });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = await ask<{ rssMb: number; heapUsedMb: number; externalMb: number }>({ cmd: 'memory' });
    for (let i = 0; i < keys.length; i++) {
      if (i % 10 === 0) await ask({ cmd: 'churn', count: 1 });
      const result = await pollOnce(false, url, keys[i]!, false, true);
      if (result.status !== 200) errors++;
    }
    // Let the sockets close, so nothing they wrote still holds snapshot buffers.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const afterCursors = await ask<{
      rssMb: number;
      heapUsedMb: number;
      externalMb: number;
      cursors: number;
      removedLifetimes: number;
    }>({ cmd: 'memory' });
    figures.cursorsAt100k = {
      keys: CURSOR_KEYS,
      cursorsStored: afterCursors.cursors,
      removedLifetimesKept: afterCursors.removedLifetimes,
      /** Live memory after GC: what the cursors (and the shared deletion log) hold. */
      addedHeapAndExternalMb: round(
        afterCursors.heapUsedMb + afterCursors.externalMb - before.heapUsedMb - before.externalMb,
        2,
      ),
      /** RSS also counts allocator pages kept after the 100 snapshot rebuilds the churn caused. */
      addedRssMb: round(afterCursors.rssMb - before.rssMb, 2),
    };
  }
  await ask({ cmd: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));
  return figures;
}

async function main(): Promise<void> {
  const durationMs = Number(process.argv[2] ?? 5000);
  // Optional second argument: a comma-separated subset of the sizes, e.g. `100000`.
  const sizes = process.argv[3] ? process.argv[3].split(',').map(Number) : SIZES;
  const results: Array<Record<string, unknown>> = [];
  for (const bans of sizes) results.push(await measure(bans, bans === 1_000 ? Math.min(durationMs, 3000) : durationMs));
  const at = (bans: number) => results.find((r) => r.bans === bans);
  const full = at(100_000)?.startupPoll as { p50Ms: number } | undefined;
  const ten = at(10_000)?.ordinaryPolls as { pollsPerSecond: number } | undefined;
  const cursors = at(100_000)?.cursorsAt100k as { addedRssMb: number; addedHeapAndExternalMb: number } | undefined;
  const targets: Record<string, unknown> = {};
  if (full) targets.fullPollP50At100kMsBelow150 = { value: full.p50Ms, met: full.p50Ms < 150 };
  if (ten) targets.pollsPerSecondAt10kAtLeast200 = { value: ten.pollsPerSecond, met: ten.pollsPerSecond >= 200 };
  if (cursors) {
    targets.cursorMemoryAt100kMbBelow100 = {
      value: cursors.addedHeapAndExternalMb,
      rssMb: cursors.addedRssMb,
      met: cursors.addedHeapAndExternalMb < 100,
    };
  }
  console.log(
    JSON.stringify(
      {
        benchmark: 'bouncer-stream',
        loadAverage: (await import('node:os')).loadavg().map((n) => round(n, 2)),
        results,
        targets,
      },
      null,
      2,
    ),
  );
}

if (process.argv[2] === 'serve') await serve();
else await main();
