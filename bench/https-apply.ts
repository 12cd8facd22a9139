// Benchmark: how long a saved HTTPS change takes to be live (getCertificate.pending false), for
// each kind of change, and the web thread's worst event-loop delay meanwhile (a new self-signed
// key pair must not stall other requests). Prints JSON.
//   node --import tsx bench/https-apply.ts [runs]
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { freePort } from '../src-server/test-support/tls.ts';

const runs = Number(process.argv[2] ?? 5);
const V3 = '/pbxcore/api/v3/';

/** Milliseconds from sending `change` until the server reports it live, and the worst event-loop stall meanwhile. */
async function timeToLive(t: TestServer, change: () => Promise<unknown>): Promise<{ ms: number; stallMs: number }> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  await change();
  for (;;) {
    const answer = await t.call(`${V3}system:getCertificate`);
    if (answer.json.data.pending === false) {
      loop.disable();
      return { ms: Math.round(performance.now() - started), stallMs: Math.round(loop.max / 1e6) };
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

const patch = (t: TestServer, body: object) => t.call(`${V3}https`, { method: 'PATCH', body });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const t = await startTestServer({ logLevel: 'silent' });
const results: Record<string, { ms: number; stallMs: number }[]> = {
  firstEnableWithNewCertificate: [],
  renewSelfSigned: [],
  movePort: [],
  disable: [],
  enable: [],
};
try {
  results.firstEnableWithNewCertificate!.push(
    await timeToLive(t, async () => patch(t, { enabled: true, port: await freePort() })),
  );
  for (let i = 0; i < runs; i++) {
    results.renewSelfSigned!.push(await timeToLive(t, () => t.call(`${V3}https:renewCertificate`, { method: 'POST' })));
    const port = await freePort();
    results.movePort!.push(await timeToLive(t, () => patch(t, { port })));
    results.disable!.push(await timeToLive(t, () => patch(t, { enabled: false })));
    results.enable!.push(await timeToLive(t, () => patch(t, { enabled: true })));
  }
} finally {
  await t.close();
}
console.log(
  JSON.stringify(
    {
      benchmark: 'https-apply',
      runs,
      // Per change: median time to live, and the longest event-loop stall seen during any of its runs.
      changes: Object.fromEntries(
        Object.entries(results).map(([name, all]) => [
          name,
          {
            msToLive: median(all.map((r) => r.ms)),
            all: all.map((r) => r.ms),
            worstStallMs: Math.max(...all.map((r) => r.stallMs)),
          },
        ]),
      ),
    },
    null,
    2,
  ),
);
