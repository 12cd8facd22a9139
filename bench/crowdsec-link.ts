// Benchmark of the CrowdSec LAPI link (issue 23). Prints JSON.
// 1. Push: 1,000 bans in a burst on a PBX linked to the real LAPI (crowdsec -no-cs, .ci/crowdsec.sh):
//    time until all 1,000 are LAPI decisions, the POST /v1/alerts requests it took, and the p99 of
//    20 bouncers polling the PBX's own export meanwhile.
// 2. Pull: a 100,000-decision stream (served by a stand-in LAPI in another process, so its JSON costs
//    nothing here) pulled by a PBX while 20 bouncers poll its export: poll p99 and the web thread's
//    worst event-loop delay, with the decisions republished to the export and without.
//   node --import tsx bench/crowdsec-link.ts [push] [pull] [pull-republish]   (all three when none is named)
//   BENCH_GAPS=gaps.json writes each event-loop gap over 60 ms as [start, end] in µs of the monotonic
//   clock, the time base of `node --cpu-prof` profiles: what ran in a stall can be read off the profile.
import { spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startCrowdsecLapi } from '../e2e/support/crowdsec-lapi.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { poll, STREAM } from '../src-server/test-support/bouncer.ts';
import { request } from '../src-server/test-support/http.ts';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';

const V3 = '/pbxcore/api/v3/';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const p99 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.99)] ?? 0;

/**
 * The bouncers' side of a poll, run in a child process: reading and gunzipping a 100k-decision
 * export in the measured thread would time the bench, not the server. Prints each poll's time to
 * its last byte (gunzipped), its time to the first byte (the server's answer), and its size.
 */
const POLLER_SOURCE = `
  const http = require('node:http');
  const { gunzip } = require('node:zlib');
  const [url, everyMs, ...keys] = process.argv.slice(1);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const get = (key, started) => new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' } }, (res) => {
      const firstByte = performance.now() - started;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error('poll answered ' + res.statusCode));
        const raw = Buffer.concat(chunks);
        if (res.headers['content-encoding'] !== 'gzip') return resolve([firstByte, raw.length]);
        gunzip(raw, (error, plain) => (error ? reject(error) : resolve([firstByte, plain.length])));
      });
    });
    req.on('error', reject);
  });
  for (const key of keys)
    (async () => {
      for (;;) {
        const started = performance.now();
        const [firstByte, bytes] = await get(key, started);
        process.stdout.write([(performance.now() - started).toFixed(1), firstByte.toFixed(1), bytes].join(' ') + '\\n');
        await sleep(Number(everyMs));
      }
    })().catch((error) => { console.error(String(error)); process.exit(1); });
`;

/**
 * `count` bouncer keys polling the PBX's export (gzip, as Go clients ask) every `everyMs` until stopped: each
 * poll's time to its last byte (`times`), to its first byte (`firstBytes`: the server's answer), and the
 * times of the polls that carried over 1 MB of decisions (`bigTimes`: a 100k delta takes its transfer time).
 */
async function pollers(t: TestServer, count = 20, everyMs = 200) {
  const keys = Array.from({ length: count }, () => createTestApiKey(t.server.services.db).key);
  for (const key of keys) await poll(t, key, '?startup=true');
  const times: number[] = [];
  const firstBytes: number[] = [];
  const bigTimes: number[] = [];
  const child = spawn(process.execPath, ['-e', POLLER_SOURCE, `${t.url}${STREAM}`, String(everyMs), ...keys], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const [total, firstByte, bytes] = line.split(' ').map(Number) as [number, number, number];
      times.push(total);
      firstBytes.push(firstByte);
      if (bytes > 2 ** 20) bigTimes.push(total);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    times,
    firstBytes,
    bigTimes,
    reset() {
      for (const list of [times, firstBytes, bigTimes]) list.length = 0;
    },
    async stop() {
      child.kill();
      await exited;
    },
  };
}

async function pushBurst() {
  const lapi = await startCrowdsecLapi();
  lapi.addMachine('bench-site', 'bench-site-password');
  lapi.addBouncer('bench-reader', 'bench-reader-key-0123456789abcdef');
  const t = await startTestServer({ logLevel: 'silent' });
  try {
    await t.call(`${V3}crowdsec-link`, {
      method: 'PUT',
      body: {
        enabled: true,
        url: lapi.url,
        siteName: 'bench-site',
        machineLogin: 'bench-site',
        machinePassword: 'bench-site-password',
      },
    });
    await sleep(1000);
    const fleet = await pollers(t);
    const started = performance.now();
    for (let i = 0; i < 1000; i++)
      t.server.services.firewall.bans.ban('sip', `198.18.${i >> 8}.${i & 255}`, 'bench burst', 3600);
    let inLapi = 0;
    while (inLapi < 1000 && performance.now() - started < 60_000) {
      const answer = await request(`${lapi.url}v1/decisions`, {
        headers: { 'X-Api-Key': 'bench-reader-key-0123456789abcdef' },
      });
      inLapi = Array.isArray(answer.json) ? answer.json.length : 0;
      if (inLapi < 1000) await sleep(100);
    }
    const ms = Math.round(performance.now() - started);
    await fleet.stop();
    const link = t.server.services.crowdsecLink.status.status.push;
    return {
      bans: 1000,
      inLapi,
      msUntilAllInLapi: ms,
      alertsSent: link.sent,
      alertsPerRequest: 500,
      exportPollP99Ms: Math.round(p99(fleet.times)),
    };
  } finally {
    await t.close();
    await lapi.close();
  }
}

/** A stand-in LAPI in a child process: `startup=true` gets 100k decisions, other polls nothing new. */
async function standInLapi(count: number): Promise<{ url: string; close(): void }> {
  const source = `
    const decisions = Array.from({ length: ${count} }, (_, i) => ({
      id: i + 1, origin: 'CAPI', type: 'ban', scope: 'Ip',
      value: '10.' + ((i >> 16) & 255) + '.' + ((i >> 8) & 255) + '.' + (i & 255),
      duration: '23h59m58.5s', scenario: 'crowdsecurity/ssh-bf' }));
    const full = JSON.stringify({ new: decisions, deleted: [] });
    require('node:http').createServer((req, res) => res.end(req.url.includes('startup=true') ? full : '{"new":null,"deleted":null}'))
      .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (c: Buffer) => resolve(c.toString().trim())),
  );
  return { url: `http://127.0.0.1:${port}/`, close: () => child.kill() };
}

async function pull(republish: boolean) {
  const count = 100_000;
  const lapi = await standInLapi(count);
  const t = await startTestServer({ logLevel: 'silent' });
  try {
    // Bouncers poll every 5-10 s; 1 s here, so a stall cannot hide between polls.
    const fleet = await pollers(t, 20, 1000);
    await sleep(3000);
    const baseline = p99(fleet.times);
    fleet.reset();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const gaps: Array<[number, number]> = [];
    let lastTick = process.hrtime.bigint();
    const ticker = setInterval(() => {
      const nowTick = process.hrtime.bigint();
      if (nowTick - lastTick > 60_000_000n) gaps.push([Number(lastTick / 1000n), Number(nowTick / 1000n)]);
      lastTick = nowTick;
    }, 5);
    const started = performance.now();
    await t.call(`${V3}crowdsec-link`, {
      method: 'PUT',
      body: {
        enabled: true,
        url: lapi.url,
        pushEnabled: false,
        pullEnabled: true,
        bouncerKey: 'stand-in',
        republish,
        pullIntervalSeconds: 2,
      },
    });
    while (t.server.services.firewall.bans.upstreamCount < count && performance.now() - started < 120_000)
      await sleep(50);
    const appliedMs = Math.round(performance.now() - started);
    await sleep(3000); // the polls that serve the grown export
    // The console's Bans page meanwhile: 1,000 upstream bans listed, all counted (in a worker).
    const pageStarted = performance.now();
    const page = await t.call(`${V3}firewall:getBannedIps`);
    const bansPage = {
      ms: Math.round(performance.now() - pageStarted),
      listed: (page.json.data as unknown[]).length,
      total: page.json.pagination?.total as number,
    };
    loop.disable();
    clearInterval(ticker);
    if (process.env.BENCH_GAPS) (await import('node:fs')).writeFileSync(process.env.BENCH_GAPS, JSON.stringify(gaps));
    await fleet.stop();
    return {
      decisions: count,
      republish,
      msUntilAllEnforced: appliedMs,
      exportPollP99MsBefore: Math.round(baseline),
      exportPollP99MsDuringAndAfter: Math.round(p99(fleet.times)),
      // What the server itself took to answer, and the polls that carried the republished decisions.
      exportFirstByteP99MsDuringAndAfter: Math.round(p99(fleet.firstBytes)),
      pollsCarryingOver1MB: { count: fleet.bigTimes.length, maxMs: Math.round(Math.max(0, ...fleet.bigTimes)) },
      exportPollP99MsOfTheOthers: Math.round(p99(fleet.times.filter((ms) => !fleet.bigTimes.includes(ms)))),
      eventLoopDelayMaxMs: Math.round(loop.max / 1e6),
      eventLoopDelayP99Ms: Math.round(loop.percentile(99) / 1e6),
      bansPage,
    };
  } finally {
    await t.close();
    lapi.close();
  }
}

// Parts named on the command line run alone (short runs while profiling); none named runs all three.
const parts = new Set(process.argv.slice(2));
const wanted = (name: string) => parts.size === 0 || parts.has(name);
const push = wanted('push') ? await pushBurst() : undefined;
const pullGuardOnly = wanted('pull') ? await pull(false) : undefined;
const pullRepublished = wanted('pull-republish') ? await pull(true) : undefined;
const { loadavg } = await import('node:os');
console.log(
  JSON.stringify(
    {
      benchmark: 'crowdsec-link',
      loadAverage1m: loadavg()[0],
      push,
      pull: [pullGuardOnly, pullRepublished].filter(Boolean),
    },
    null,
    2,
  ),
);
