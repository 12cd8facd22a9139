// Benchmark: the console over a remote-like link (the figures e2e/console-load-speed.test.ts used to
// report; the test keeps what is fetched and how many bytes). Debian Chromium, headless, CDP
// Network.emulateNetworkConditions at 10 Mbit/s both ways and 50 ms latency, opens the dashboard on a
// fresh profile, then reloads it. Reports the time to the first screen, to the complete dashboard,
// and of the reload, with the bytes. Builds the console first when out/renderer is stale. Prints JSON.
//   node --import tsx bench/console-load.ts [runs]
import { loadavg } from 'node:os';
import { launchConsoleBrowser } from '../e2e/support/browser.ts';
import { startConsoleServer } from '../e2e/support/console-server.ts';
import { kb, LINK, recordTransfers } from '../e2e/support/network-transfers.ts';
import { consoleScreens } from '../e2e/pages/screens.ts';

const RUNS = Number(process.argv[2] ?? 3);
const runs: Array<Record<string, unknown>> = [];
for (let run = 0; run < RUNS; run++) {
  const server = await startConsoleServer({ adminPassword: undefined });
  const browser = await launchConsoleBrowser();
  try {
    const { page } = browser;
    const { dashboard } = consoleScreens({ page });
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', LINK);
    const log = recordTransfers(cdp);

    const started = performance.now();
    await page.goto(`${server.url}/`);
    await dashboard.firstContent();
    const firstScreenMs = performance.now() - started;
    const firstBytes = log.transfers.reduce((sum, t) => sum + t.bytes, 0);
    await dashboard.complete();
    const completeMs = performance.now() - started;
    await page.waitForLoadState('networkidle');

    log.reset();
    const reloadStarted = performance.now();
    await page.reload();
    await dashboard.complete();
    const reloadMs = performance.now() - reloadStarted;
    const reloadBytes = log.transfers.filter((t) => !t.fromCache).reduce((sum, t) => sum + t.bytes, 0);
    runs.push({
      firstScreenKB: kb(firstBytes),
      firstScreenMs: Math.round(firstScreenMs),
      completeMs: Math.round(completeMs),
      reloadKB: kb(reloadBytes),
      reloadMs: Math.round(reloadMs),
    });
  } finally {
    await browser.close();
    await server.close();
  }
}
console.log(JSON.stringify({ link: LINK, runs, loadAverage: loadavg().map((l) => Math.round(l * 10) / 10) }, null, 1));
