// Benchmark: per-key caps and aggregation (issue 4/6) at 100,000 intrusion bans + 100,000 upstream
// decisions. Measures, through the export's own entry point: an uncapped key's poll (the shared
// snapshot path) with no capped key and with capped keys polling, a capped key's first poll (its
// view built) and later polls (view shared), and an aggregating key's first poll. Prints JSON.
//   node --import tsx bench/key-caps.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActiveBan } from '../src-server/firewall/bans/index.ts';

const BANS = 100_000;
const UPSTREAM = 100_000;
const ROUNDS = 21;

const { createServer } = await import('../src-server/index.ts');
const { createTestApiKey } = await import('../src-server/test-support/api-keys.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-caps-'));
const server = createServer({ host: '127.0.0.1', port: 0, dataDir, logLevel: 'warn', workers: 1 });
await server.start();
const { db, firewall } = server.services;
const ip = (a: number, i: number) => `${a}.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
db.transaction(() => {
  for (let i = 0; i < BANS; i++) firewall.bans.ban(i % 2 ? 'sip' : 'http', ip(10, i), 'bench', 3600 + (i % 600));
})();
const now = Date.now();
firewall.bans.setUpstream(
  Array.from({ length: UPSTREAM }, (_, i) => {
    const value = ip(11, i);
    const ban: ActiveBan = {
      ...{ id: -1, category: 'upstream', ip: value, reason: 'bench', bannedAt: now },
      ...{ expiresAt: now + 600_000 + i, origin: 'CAPI', scenario: 'crowdsecurity/ssh-bf' },
    };
    return { value, ban };
  }),
  true,
);
firewall.snapshots.get();
const [k1, k2, k3, k4] = [1, 2, 3, 4].map((n) => createTestApiKey(db, { description: `bench ${n}` }).id) as [
  number,
  number,
  number,
  number,
];

const poll = (keyId: number, view?: { entryCap: number | null; aggregate: boolean }) =>
  firewall.bouncerExport.stream({
    keyId,
    expandRanges: false,
    startup: false,
    acceptsGzip: false,
    served: { ip: '127.0.0.1', userAgent: 'bench' },
    view: view && { ...view, keyName: `bench ${keyId}` },
  });
const timed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianOf = async (run: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await timed(run));
  return median(times);
};

if (process.env.PROFILE) {
  const { entryOf, selectCapped } = await import('../src-server/firewall/feeds/index.ts');
  const members = [...firewall.snapshots.published.plain.values()];
  let t = performance.now();
  const all = members.map((m) => entryOf(m, Date.now()));
  console.error('entryOf', performance.now() - t);
  t = performance.now();
  selectCapped(all, 35_000);
  console.error('select', performance.now() - t);
  t = performance.now();
  firewall.views.entriesForKey({ entryCap: 34_000, aggregate: false });
  console.error('view', performance.now() - t);
}
const uncapped = { entryCap: null, aggregate: false };
const capped = { entryCap: 35_000, aggregate: false };
const merged = { entryCap: null, aggregate: true };
const uncappedAloneMs = await medianOf(() => poll(k1, uncapped));
const cappedFirstMs = await timed(() => poll(k2, capped));
const cappedLaterMs = await medianOf(() => poll(k2, capped));
const otherCappedKeyMs = await timed(() => poll(k3, capped));
const uncappedBesideCappedMs = await medianOf(() => poll(k1, uncapped));
const aggregateFirstMs = await timed(() => poll(k4, merged));
const view = firewall.views.entriesForKey(capped);
console.log(
  JSON.stringify(
    {
      published: firewall.snapshots.get().count,
      uncappedPollMs: { alone: uncappedAloneMs, besideCappedKeys: uncappedBesideCappedMs },
      cappedPollMs: { firstViewBuild: cappedFirstMs, later: cappedLaterMs, secondKeySameOptions: otherCappedKeyMs },
      aggregateFirstPollMs: aggregateFirstMs,
      cappedLeftOut: view.leftOut,
    },
    null,
    2,
  ),
);
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
