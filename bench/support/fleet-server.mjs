// The server side of bench/bouncer-fleet.ts, in a child process of its own (its CPU and RSS measured
// apart from the fleet). Plain JavaScript on purpose: by default it runs the built server
// (out/server, what `npm start` ships) with no TypeScript loader in any thread, so the RSS measured is
// the product's; BENCH_FROM=source runs src-server through tsx instead (about 70 MB more RSS: the
// loader in the main thread and in each worker).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const fromSource = process.env.BENCH_FROM === 'source';
const serverModule = (path) =>
  import(
    new URL(`../../${fromSource ? 'src-server' : 'out/server'}/${path}${fromSource ? '.ts' : '.js'}`, import.meta.url)
      .href
  );
const { createServer } = await serverModule('index');
const { hashApiKey } = await serverModule('auth/api-key-store');
const { writeWithShortWait } = await serverModule('storage/background-write');

/** A bouncer key inserted as the console's key dialog would store it (read-only on the export). */
function createBouncerKey(db, description) {
  const key = randomBytes(32).toString('hex');
  db.prepare(
    `INSERT INTO api_keys (description, key_hash, key_display, allowed_paths, full_permissions, networkfilterid, created_at)
     VALUES (?, ?, ?, ?, 0, 'none', ?)`,
  ).run(
    description,
    hashApiKey(key),
    `${key.slice(0, 4)}...${key.slice(-4)}`,
    JSON.stringify({ '/api/v3/firewall-bouncer': 'read' }),
    new Date().toISOString(),
  );
  return key;
}

/** Deny entries per seeded filter: an imported blocklist split the way an operator would. */
const ENTRIES_PER_FILTER = 500;

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
const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn' });
await server.start();
const { db, firewall } = server.services;
const ipOf = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
let churnTimer;
let changes = 0;
let churnSkipped = 0;
// RSS every 10 s from the start of the measured run: a heap that grows is a crash later.
const rssSamples = [];
// The main thread's heap at the same moments: what of the RSS is the web thread's (the rest: workers, buffers).
const heapSamples = [];
let sampler;
// The highest RSS at any moment (every 250 ms): a peak between two 10 s samples counts too.
let rssPeak = 0;
// The same, since the last 'window' command: the peak of one stretch of the run (an import arriving).
let windowPeak = 0;
let peakSampler;
const startSampling = () => {
  clearInterval(sampler);
  clearInterval(peakSampler);
  rssSamples.length = 0;
  rssPeak = 0;
  peakSampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    rssPeak = Math.max(rssPeak, rss);
    windowPeak = Math.max(windowPeak, rss);
  }, 250);
  heapSamples.length = 0;
  loopDelay.reset();
  Object.assign(gc, { count: 0, totalMs: 0, maxMs: 0 });
  loopDelay.enable();
  sampler = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    rssSamples.push(Math.round(rss / 2 ** 20));
    heapSamples.push(Math.round(heapUsed / 2 ** 20));
  }, 10_000);
};
const reply = (message) => process.send(message);

process.on('message', (message) => {
  switch (message.cmd) {
    case 'seed': {
      db.transaction(() => {
        for (let i = 0; i < message.bans; i++) {
          // One in 500 expires during the run (about 1.7 a second at 100k over 2 minutes); the rest last an hour.
          const seconds = i % 500 === 0 ? 5 + Math.floor((i / message.bans) * (message.durationMs / 1000)) : 3600;
          firewall.bans.ban(i % 2 ? 'sip' : 'http', ipOf(i), 'bench', seconds);
        }
      })();
      // Filter entries straight into the table (as a restored backup would), then one reload.
      const insert = db.prepare('INSERT INTO network_filters (permit, deny, description, rules) VALUES (?, ?, ?, ?)');
      db.transaction(() => {
        for (let f = 0; f * ENTRIES_PER_FILTER < message.filterEntries; f++) {
          const deny = [];
          for (let e = 0; e < ENTRIES_PER_FILTER && f * ENTRIES_PER_FILTER + e < message.filterEntries; e++) {
            const n = f * ENTRIES_PER_FILTER + e;
            deny.push(`100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`);
          }
          insert.run('0.0.0.0/0', deny.join(','), `blocklist ${f}`, '{}');
        }
      })();
      firewall.state.reload();
      const keys = Array.from({ length: message.keys }, (_, i) => createBouncerKey(db, `fleet ${i}`));
      reply({ url: server.url, keys, databaseFile: join(dataDir, 'pbx.sqlite') });
      return;
    }
    case 'churn': {
      clearInterval(churnTimer);
      if (!message.on || !message.bans) {
        if (message.on) startSampling();
        return reply({ ok: true });
      }
      startSampling();
      let n = 0;
      // Every 500 ms: one ban added and one lifted, as the intrusion detector and an operator would.
      // While a worker holds the write lock (an import), the detector's ban waits for the next
      // failure, as in the product: here the churn skips that tick and counts it.
      churnTimer = setInterval(() => {
        try {
          firewall.bans.ban('ami', `172.16.${(n >> 8) & 255}.${n & 255}`, 'churn', 3600);
          const lifted = ipOf(1 + 2 * n);
          writeWithShortWait(db, () =>
            db
              .prepare('UPDATE firewall_bans SET lifted_at = ? WHERE ip = ? AND lifted_at IS NULL')
              .run(Date.now(), lifted),
          );
          firewall.bans.reloadIp(lifted);
          n++;
          changes += 2;
        } catch {
          churnSkipped++;
        }
      }, 500);
      return reply({ ok: true });
    }
    case 'window': {
      // The RSS peak since the last call, then a new window starts.
      const peak = Math.round(Math.max(windowPeak, process.memoryUsage.rss()) / 2 ** 20);
      windowPeak = 0;
      return reply({ rssPeakMb: peak });
    }
    case 'burst': {
      // Issue [7/7]: bans in a burst, as an attack on many lines at once makes them; pushed to the LAPI.
      for (let i = 0; i < message.count; i++)
        firewall.bans.ban('sip', `172.20.${(i >> 8) & 255}.${i & 255}`, 'bench burst', 3600);
      reply({ ok: true });
      return;
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
        // Where the main thread's memory is: V8's heap, and buffers outside it (snapshots, sockets).
        mainThreadMb: (({ heapUsed, heapTotal, external, arrayBuffers }) => ({
          heapUsed: Math.round(heapUsed / 2 ** 20),
          heapTotal: Math.round(heapTotal / 2 ** 20),
          external: Math.round(external / 2 ** 20),
          arrayBuffers: Math.round(arrayBuffers / 2 ** 20),
        }))(process.memoryUsage()),
        rssSamplesMb: [...rssSamples],
        rssPeakMb: Math.round(rssPeak / 2 ** 20),
        mainHeapSamplesMb: [...heapSamples],
        manualBuilds: firewall.snapshots.manualBuilds,
        builds: firewall.snapshots.builds,
        publishes: firewall.snapshots.publishes,
        compressions: firewall.compressor.compressions,
        logVersion: firewall.log.version,
        changes,
        churnSkipped,
      });
      return;
    }
    case 'stop':
      clearInterval(churnTimer);
      clearInterval(sampler);
      clearInterval(peakSampler);
      void server.stop().then(() => {
        rmSync(dataDir, { recursive: true, force: true });
        reply({ ok: true });
        process.exit(0);
      });
  }
});
reply({ ready: true });
