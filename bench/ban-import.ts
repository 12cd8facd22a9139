// Benchmark: bulk ban import and the router feed at 100,000 bans. Imports 100,000 lines (values,
// IPv4 and IPv6) through firewall:importBans (a dry run, then the import), measuring each request
// and how long the server's event loop stalled meanwhile (what a bouncer poll would wait); then
// fetches the plain_text and mikrotik feeds. Meanwhile 20 bouncer keys poll the decision stream
// every 200 ms (gzip), and their poll latency is reported. Prints JSON.
//   node --import tsx bench/ban-import.ts [lines]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createServer } from '../src-server/index.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { sendRequest } from '../src-server/test-support/http.ts';
import { banListLines } from './support/ban-list.ts';

const LINES = Number(process.argv[2] ?? 100_000);

/** One request; the body only counted (and kept as text while it is small), never decoded. */
async function call(
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; text: string }> {
  const answer = await sendRequest(url, { method, headers, body });
  const bytes = answer.body.length;
  return { status: answer.status, bytes, text: bytes < 100_000 ? answer.body.toString() : '' };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; result: T; loopMaxMs: number }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const start = performance.now();
  const result = await run();
  const ms = performance.now() - start;
  loop.disable();
  return { ms: Math.round(ms), result, loopMaxMs: Math.round(loop.max / 1e6) };
}

const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-import-'));
const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn' });
await server.start();
/** The longest single call of the web thread's import steps (read, hand-over, snapshot rebuild). */
const longest: Record<string, number> = {};
function timeCalls<T extends object>(target: T, name: keyof T & string): void {
  const original = (target[name] as (...args: unknown[]) => unknown).bind(target);
  (target as Record<string, unknown>)[name] = (...args: unknown[]) => {
    const start = performance.now();
    try {
      return original(...args);
    } finally {
      longest[name] = Math.max(longest[name] ?? 0, Math.round(performance.now() - start));
    }
  };
}
timeCalls(server.services.firewall.bans, 'readImportRows');
timeCalls(server.services.firewall.bans, 'absorb');
timeCalls(server.services.firewall.snapshots, 'get');
try {
  const body = banListLines(LINES).join('\n');
  const url = `${server.url}/pbxcore/api/v3/firewall:importBans`;
  const headers = { 'content-type': 'text/plain' };
  // Bouncers polling throughout: what an import costs them.
  const keys = Array.from({ length: 20 }, () => createTestApiKey(server.services.db).key);
  let latencies: number[] = [];
  let polling = true;
  const startPolling = () =>
    keys.map(async (apiKey) => {
      while (polling) {
        const start = performance.now();
        await call(`${server.url}/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream`, 'GET', undefined, {
          'X-Api-Key': apiKey,
          'Accept-Encoding': 'gzip',
        });
        latencies.push(performance.now() - start);
        await new Promise((r) => setTimeout(r, 200));
      }
    });
  const percentiles = () => {
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
    return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(sorted[sorted.length - 1]!) };
  };
  let pollers = startPolling();
  const dry = await timed(() => call(`${url}?format=values&duration=24h&dryRun=true`, 'POST', body, headers));
  const real = await timed(() => call(`${url}?format=values&duration=24h`, 'POST', body, headers));
  if (real.result.status !== 200)
    throw new Error(`import answered ${real.result.status}: ${real.result.text.slice(0, 500)}`);
  // The web thread takes the import in slices: wait until every ban is in, watching its event loop.
  const absorbed = await timed(async () => {
    while (server.services.firewall.bans.active().length < LINES) await new Promise((r) => setTimeout(r, 10));
    server.services.firewall.snapshots.get();
  });
  polling = false;
  await Promise.all(pollers);
  const duringImport = percentiles();
  // The same polls for 5 s at 100k bans with nothing arriving: the machine's own baseline.
  latencies = [];
  polling = true;
  pollers = startPolling();
  await new Promise((r) => setTimeout(r, 5000));
  polling = false;
  await Promise.all(pollers);
  const afterImport = percentiles();
  const key = createTestApiKey(server.services.db).key;
  const feedUrl = `${server.url}/pbxcore/api/v3/firewall-bouncer/blocklist`;
  const feed = await timed(() => call(feedUrl, 'GET', undefined, { 'X-Api-Key': key }));
  const feedAgain = await timed(() => call(feedUrl, 'GET', undefined, { 'X-Api-Key': key }));
  const mikrotik = await timed(() => call(`${feedUrl}?format=mikrotik`, 'GET', undefined, { 'X-Api-Key': key }));
  console.log(
    JSON.stringify(
      {
        lines: LINES,
        bodyBytes: Buffer.byteLength(body),
        dryRun: { status: dry.result.status, ms: dry.ms, serverLoopMaxMs: dry.loopMaxMs },
        import: {
          status: real.result.status,
          ms: real.ms,
          serverLoopMaxMs: real.loopMaxMs,
          answer: JSON.parse(real.result.text).data?.added,
        },
        webThreadAbsorb: { ms: absorbed.ms, loopMaxMs: absorbed.loopMaxMs },
        longestWebThreadCallMs: longest,
        pollsDuringImport: duringImport,
        pollsAfterImport: afterImport,
        loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
        activeBansAfter: server.services.firewall.bans.active().length,
        feedPlainText: { ms: feed.ms, bytes: feed.result.bytes, loopMaxMs: feed.loopMaxMs },
        feedPlainTextCached: { ms: feedAgain.ms },
        feedMikrotik: { ms: mikrotik.ms, bytes: mikrotik.result.bytes, loopMaxMs: mikrotik.loopMaxMs },
      },
      null,
      1,
    ),
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
