// Benchmark: a bouncer fleet against a changing ban set. 100,000 active bans; 1,000 API keys each
// polling every 10 s with Accept-Encoding: gzip (as CrowdSec's Go clients do), for 2 minutes, while
// bans are added, lifted and expire (several changes a second). The server runs in a child process
// (its own CPU and RSS); this process is the fleet. Prints JSON.
//   node --import tsx bench/bouncer-fleet.ts [durationMs] [keys] [bans]
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
const POLL_EVERY_MS = 10_000;

type Command = { cmd: 'seed'; bans: number; keys: number; durationMs: number } | { cmd: 'churn'; on: boolean } | { cmd: 'stats' } | { cmd: 'stop' };

// ---------------------------------------------------------------- server side (child process)
async function serve(): Promise<void> {
  const { createServer } = await import('../src-server/index.ts');
  const { createTestApiKey } = await import('../src-server/test-support/api-keys.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-fleet-'));
  // How long anything waited on the server's event loop: what a poll can wait for before its turn.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  // Garbage-collection pauses, the other thing that can hold a poll up.
  const gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', workers: 1 });
  await server.start();
  const { db, firewall } = server.services;
  const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  let churnTimer: NodeJS.Timeout | undefined;
  let changes = 0;
  const reply = (message: unknown) => process.send!(message);

  process.on('message', (message: Command) => {
    switch (message.cmd) {
      case 'seed': {
        db.transaction(() => {
          for (let i = 0; i < message.bans; i++) {
            // One in 500 expires during the run (about 1.7 a second at 100k over 2 minutes); the rest last an hour.
            const seconds = i % 500 === 0 ? 5 + Math.floor((i / message.bans) * (message.durationMs / 1000)) : 3600;
            firewall!.bans.ban(i % 2 ? 'sip' : 'http', ipOf(i), 'bench', seconds);
          }
        })();
        const keys = Array.from({ length: message.keys }, (_, i) => createTestApiKey(db, { description: `fleet ${i}` }).key);
        reply({ url: server.url, keys });
        return;
      }
      case 'churn': {
        clearInterval(churnTimer);
        if (!message.on) return reply({ ok: true });
        loopDelay.reset();
        Object.assign(gc, { count: 0, totalMs: 0, maxMs: 0 });
        loopDelay.enable();
        let n = 0;
        // Every 500 ms: one ban added and one lifted, as the intrusion detector and an operator would.
        churnTimer = setInterval(() => {
          firewall!.bans.ban('ami', `172.16.${(n >> 8) & 255}.${n & 255}`, 'churn', 3600);
          const lifted = ipOf(1 + 2 * n++);
          db.prepare('UPDATE firewall_bans SET lifted_at = ? WHERE ip = ? AND lifted_at IS NULL').run(Date.now(), lifted);
          firewall!.bans.reloadIp(lifted);
          changes += 2;
        }, 500);
        return reply({ ok: true });
      }
      case 'stats': {
        const usage = process.cpuUsage();
        reply({
          loopDelayP50Ms: loopDelay.percentile(50) / 1e6,
          loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
          loopDelayMaxMs: loopDelay.max / 1e6,
          gc: { ...gc },
          cpuMs: (usage.user + usage.system) / 1000,
          rssMb: process.memoryUsage().rss / 2 ** 20,
          builds: firewall!.snapshots.builds,
          publishes: firewall!.snapshots.publishes,
          compressions: firewall!.compressor.compressions,
          logVersion: firewall!.log.version,
          changes,
        });
        return;
      }
      case 'stop':
        clearInterval(churnTimer);
        void server.stop().then(() => {
          rmSync(dataDir, { recursive: true, force: true });
          reply({ ok: true });
          process.exit(0);
        });
    }
  });
  reply({ ready: true });
}

// ---------------------------------------------------------------- client side: the fleet
function startServer(): Promise<{ child: ChildProcess; ask: <T>(command: Command) => Promise<T> }> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(command: Command) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(command);
    });
  return new Promise((resolve) => child.once('message', () => resolve({ child, ask })));
}

interface Stats {
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  gc: { count: number; totalMs: number; maxMs: number };
  cpuMs: number;
  rssMb: number;
  builds: number;
  publishes: number;
  compressions: number;
  logVersion: number;
  changes: number;
}

/**
 * One gzip poll read to its last byte (not decompressed: the fleet measures the server). `firstByteMs`
 * is how long the server took to answer; `ms` adds the transfer, which this one client process
 * also pays for (it reads every bouncer's bytes on one core).
 */
function poll(agent: Agent, url: string, key: string): Promise<{ ms: number; firstByteMs: number; status: number; bytes: number; error?: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(url, { agent, headers: { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' } }, (res) => {
      const firstByteMs = performance.now() - started;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ ms: performance.now() - started, firstByteMs, status: res.statusCode ?? 0, bytes }));
      res.on('error', (error) => resolve({ ms: performance.now() - started, firstByteMs, status: 0, bytes, error: error.message }));
    });
    req.on('error', (error) => resolve({ ms: performance.now() - started, firstByteMs: 0, status: 0, bytes: 0, error: error.message }));
    req.end();
  });
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const durationMs = Number(process.argv[2] ?? 120_000);
  const keyCount = Number(process.argv[3] ?? 1_000);
  const bans = Number(process.argv[4] ?? 100_000);
  const { child, ask } = await startServer();
  const { url: base, keys } = await ask<{ url: string; keys: string[] }>({ cmd: 'seed', bans, keys: keyCount, durationMs });
  const url = `${base}${STREAM}`;
  // Each bouncer keeps its own keep-alive connection, as a Go client does.
  const agents = keys.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));

  // Start-up: every key's first poll (startup=true), spread over one poll interval.
  const startup: number[] = [];
  await Promise.all(
    keys.map(async (key, i) => {
      await new Promise((r) => setTimeout(r, (i * POLL_EVERY_MS) / keyCount));
      startup.push((await poll(agents[i]!, `${url}?startup=true`, key)).ms);
    }),
  );
  startup.sort((a, b) => a - b);

  await ask({ cmd: 'churn', on: true });
  const before = await ask<Stats>({ cmd: 'stats' });
  const started = performance.now();
  const deadline = started + durationMs;
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  const errors = new Map<string, number>();
  let offered = 0;
  let failed = 0;
  let late = 0;
  let bytes = 0;
  // Every key polls every 10 s on its own schedule (phase-shifted); a poll still running when the
  // next is due delays it, as a real bouncer's ticker would, and counts as late.
  await Promise.all(
    keys.map(async (key, i) => {
      let due = started + (i * POLL_EVERY_MS) / keyCount;
      while (due < deadline) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        else late++;
        offered++;
        const result = await poll(agents[i]!, url, key);
        latencies.push(result.ms);
        firstBytes.push(result.firstByteMs);
        bytes += result.bytes;
        if (result.status !== 200) {
          failed++;
          const reason = result.error ?? `HTTP ${result.status}`;
          errors.set(reason, (errors.get(reason) ?? 0) + 1);
        }
        due += POLL_EVERY_MS;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await ask<Stats>({ cmd: 'stats' });
  await ask({ cmd: 'churn', on: false });
  latencies.sort((a, b) => a - b);
  firstBytes.sort((a, b) => a - b);
  for (const agent of agents) agent.destroy();
  await ask({ cmd: 'stop' });
  await new Promise((resolve) => child.once('exit', resolve));

  const cpuShare = (after.cpuMs - before.cpuMs) / 1000 / seconds;
  const p99 = percentile(latencies, 99);
  console.log(
    JSON.stringify(
      {
        benchmark: 'bouncer-fleet',
        loadAverage: loadavg().map((n) => round(n, 2)),
        bans,
        keys: keyCount,
        pollEverySeconds: POLL_EVERY_MS / 1000,
        seconds: round(seconds),
        startupPolls: { p50Ms: round(percentile(startup, 50)), p99Ms: round(percentile(startup, 99)) },
        polls: {
          offered,
          served: latencies.length - failed,
          failed,
          errors: Object.fromEntries(errors),
          late,
          perSecond: round(latencies.length / seconds),
          p50Ms: round(percentile(latencies, 50), 2),
          p99Ms: round(p99, 2),
          maxMs: round(latencies[latencies.length - 1] ?? 0),
          firstByteP50Ms: round(percentile(firstBytes, 50), 2),
          firstByteP99Ms: round(percentile(firstBytes, 99), 2),
          gzipMegabytesPerSecond: round(bytes / seconds / 2 ** 20),
        },
        server: {
          cpuShareOfOneCore: round(cpuShare, 2),
          eventLoopDelayMs: { p50: round(after.loopDelayP50Ms, 2), p99: round(after.loopDelayP99Ms, 2), max: round(after.loopDelayMaxMs, 1) },
          gcPauses: { count: after.gc.count, totalMs: round(after.gc.totalMs), maxMs: round(after.gc.maxMs, 1) },
          rssMb: round(after.rssMb),
          membershipChanges: after.changes - before.changes,
          logVersionsPublished: after.logVersion - before.logVersion,
          snapshotRebuilds: after.builds - before.builds,
          snapshotRebuildsPerSecond: round((after.builds - before.builds) / seconds, 2),
          compressions: after.compressions - before.compressions,
          compressionsPerSecond: round((after.compressions - before.compressions) / seconds, 2),
        },
        targets: {
          cpuUnderOneCore: { value: round(cpuShare, 2), met: cpuShare < 1 },
          p99Under100Ms: { value: round(p99, 2), met: p99 < 100 },
          everyOfferedPollServed: { value: `${latencies.length - failed}/${offered}`, met: failed === 0 && latencies.length === offered },
        },
      },
      null,
      2,
    ),
  );
}

if (process.argv[2] === 'serve') await serve();
else await main();
