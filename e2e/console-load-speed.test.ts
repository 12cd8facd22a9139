// The console over a remote-like link: Chromium emulates 10 Mbit/s with 50 ms latency (CDP
// Network.emulateNetworkConditions). The first screen must need under 250 KB on the wire, arrive
// compressed, and a reload must fetch only index.html (hashed assets come from the cache). How long
// it takes is bench/console-load.ts's figure: a test asserts behaviour, a bench speed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useConsole } from './support/console-session.ts';
import { kb, LINK, recordTransfers } from './support/network-transfers.ts';

const FIRST_SCREEN_BUDGET = 250 * 1024;

describe('console load over a 10 Mbit/s, 50 ms link', () => {
  const app = useConsole({ server: { adminPassword: undefined } });
  const { dashboard } = app.screens;

  it('shows the first screen with under 250 KB compressed, then a reload fetches only index.html', async (context) => {
    const { browser, page } = app;
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', LINK);
    const log = recordTransfers(cdp);

    await app.open();
    await dashboard.firstContent();
    const firstScreen = [...log.transfers];
    await dashboard.complete();
    await page.waitForLoadState('networkidle');

    const assets = firstScreen.filter((t) => !t.url.includes('/pbxcore/'));
    const firstBytes = firstScreen.reduce((sum, t) => sum + t.bytes, 0);
    for (const asset of assets.filter((t) => /\.(js|css|html)$|\/$/.test(new URL(t.url).pathname))) {
      assert.equal(asset.encoding, 'br', `${asset.url} is sent compressed`);
    }

    log.reset();
    await page.reload();
    await dashboard.complete();
    // The favicon is not part of the build (Chromium asks for it and gets the page's 404 or shell).
    const fetched = log.transfers
      .filter((t) => !t.fromCache && !t.url.includes('/pbxcore/') && !t.url.endsWith('/favicon.ico'))
      .map((t) => new URL(t.url).pathname);
    const reloadBytes = log.transfers.filter((t) => !t.fromCache).reduce((sum, t) => sum + t.bytes, 0);

    context.diagnostic(
      JSON.stringify({
        firstScreenKB: kb(firstBytes),
        firstScreenFiles: assets.length,
        reloadFetched: fetched,
        reloadKB: kb(reloadBytes),
      }),
    );
    assert.ok(firstBytes < FIRST_SCREEN_BUDGET, `first screen: ${kb(firstBytes)} KB`);
    assert.deepEqual(fetched, ['/']);
  });
});
