// Benchmark: the Bans page at 100,000 bans (issue #28 item 6). Imports 100,000 bans through
// firewall:importBans, then opens /bans in Debian's Chromium (headless, 1440 × 900) and measures
// the time to the first rows (a fresh tab on /bans, and the side bar's link from the Dashboard),
// and the time a search takes to show its one match: from the keystroke (the console waits 150 ms
// for typing to pause) and from the request leaving. Also times
// the API calls the page makes (first page, last page, a search, the counts), median of 5. Prints JSON.
//   node --import tsx bench/bans-page.ts [bans]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { ensureRendererBuilt } from '../e2e/support/renderer-build.ts';
import { createServer } from '../src-server/index.ts';
import { sendRequest } from '../src-server/test-support/http.ts';
import { banListLines } from './support/ban-list.ts';

const BANS = Number(process.argv[2] ?? 100_000);
const V3 = '/pbxcore/api/v3/';
/** An IPv4 address near the end of the list (100.65.134.137 of 100,000): no other address contains it. */
const NEEDLE = banListLines(BANS)[BANS - 23]!;

/** A promise, in the page, that resolves on the first animation frame where `condition` holds. */
const untilFrame = (condition: string) =>
  `new Promise((resolve) => { const check = () => (${condition}) ? resolve() : requestAnimationFrame(check); check(); })`;
const ROWS_SHOWN = `document.querySelector('[data-testid="ban-row"]')`;

/** Runs a script in the page (as text: the bench's tsconfig has no DOM types) and returns its value. */
const inPage = <T>(page: Page, script: string) => page.evaluate(script) as Promise<T>;

type Timing = { sentAtMs: number; answeredAtMs: number };
/**
 * When the first page's request left and its answer arrived, in ms since `origin` (page time):
 * what the rest of the time to the first rows went to (scripts and session before, rendering after).
 */
const pageRequestTiming = (origin: string) =>
  `(() => { const start = ${origin};
    const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('getBannedIps?limit=50&offset=0')).pop();
    return { sentAtMs: Math.round(e.startTime - start), answeredAtMs: Math.round(e.responseEnd - start) }; })()`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median time of an API call the page makes (the server's share of a page view). */
async function apiMs(url: string): Promise<{ ms: number; total: number }> {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const answer = await sendRequest(url, { method: 'GET' });
    times.push(performance.now() - start);
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${answer.body.toString().slice(0, 300)}`);
    const json = JSON.parse(answer.body.toString());
    total = json.pagination?.total ?? json.data?.total ?? 0;
  }
  return { ms: Math.round(median(times)), total };
}

const dataDir = mkdtempSync(join(tmpdir(), 'pbx-bench-bans-page-'));
const server = createServer({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  logLevel: 'warn',
  staticDir: await ensureRendererBuilt(),
});
await server.start();
const browser = await chromium.launch({
  executablePath: process.env.PBX_E2E_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  const imported = await sendRequest(`${server.url}${V3}firewall:importBans?format=values&duration=24h`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: banListLines(BANS).join('\n'),
  });
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${imported.body.toString().slice(0, 300)}`);
  // The web thread takes the import in slices: measure once every ban is in.
  while (server.services.firewall.bans.active().length < BANS) await new Promise((r) => setTimeout(r, 20));

  const api = {
    firstPage: await apiMs(`${server.url}${V3}firewall:getBannedIps?limit=50&offset=0`),
    lastPage: await apiMs(`${server.url}${V3}firewall:getBannedIps?limit=50&offset=${BANS - 50}`),
    searchOne: await apiMs(`${server.url}${V3}firewall:getBannedIps?limit=50&offset=0&search=${NEEDLE}`),
    searchMany: await apiMs(`${server.url}${V3}firewall:getBannedIps?limit=50&offset=0&search=100.65.1`),
    // Text that is not an address: a scan of the address, reason and who banned (no match: the whole scan).
    searchText: await apiMs(`${server.url}${V3}firewall:getBannedIps?limit=50&offset=0&search=no-such-reason`),
    counts: await apiMs(`${server.url}${V3}firewall:getBanCounts`),
    countsSearch: await apiMs(`${server.url}${V3}firewall:getBanCounts?search=${NEEDLE}`),
  };

  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const rows = page.getByTestId('ban-row');
  // Cold: a fresh tab loads the console at /bans (HTML, scripts, session, then the first page),
  // timed in the page from its navigation start to the frame that has a row.
  await page.goto(`${server.url}/bans`, { waitUntil: 'commit' });
  const firstRowsColdMs = await inPage<number>(page, `${untilFrame(ROWS_SHOWN)}.then(() => performance.now())`);
  const coldPageRequest = await inPage<Timing>(page, pageRequestTiming('0'));
  // In the app: from the Dashboard, the Bans link of the side bar.
  await page.goto(`${server.url}/`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  const firstRowsInAppMs = await inPage<number>(
    page,
    `(() => { const start = (window.benchClickedAt = performance.now()); document.querySelector('nav a[href="/bans"]').click();
      return ${untilFrame(ROWS_SHOWN)}.then(() => performance.now() - start); })()`,
  );
  const inAppPageRequest = await inPage<Timing>(page, pageRequestTiming('window.benchClickedAt'));
  const rowsInDom = await rows.count();
  const range = await page.getByText(/^[\d,]+–[\d,]+ of [\d,]+$/).innerText();

  // A search pasted into the box: the pause the console waits for, the request, and the frame
  // that shows the one match; and the part from the request leaving (resource timing).
  const needle = JSON.stringify(NEEDLE);
  const search = await inPage<{ fromKeystroke: number; fromRequest: number; sentAtMs: number; answeredAtMs: number }>(
    page,
    `(() => {
      const input = document.querySelector('input[type="search"]');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      const start = performance.now();
      setValue.call(input, ${needle});
      input.dispatchEvent(new Event('input', { bubbles: true }));
      const found = () => { const r = document.querySelectorAll('[data-testid="ban-row"]');
        return r.length === 1 && r[0].textContent.includes(${needle}); };
      return ${untilFrame('found()')}.then(() => {
        const end = performance.now();
        const sent = performance.getEntriesByType('resource')
          .filter((e) => e.name.includes('getBannedIps') && e.name.includes(encodeURIComponent(${needle}))).pop();
        return { fromKeystroke: end - start, fromRequest: end - sent.startTime, sentAtMs: sent.startTime - start,
          answeredAtMs: sent.responseEnd - start };
      });
    })()`,
  );

  console.log(
    JSON.stringify(
      {
        bans: BANS,
        loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
        api,
        browser: {
          firstRowsColdMs: Math.round(firstRowsColdMs),
          coldPageRequest,
          firstRowsInAppMs: Math.round(firstRowsInAppMs),
          inAppPageRequest,
          rowsInDom,
          range,
          searchFromKeystrokeMs: Math.round(search.fromKeystroke),
          searchFromRequestMs: Math.round(search.fromRequest),
          searchRequest: { sentAtMs: Math.round(search.sentAtMs), answeredAtMs: Math.round(search.answeredAtMs) },
          searchRowsInDom: await rows.count(),
        },
      },
      null,
      1,
    ),
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
