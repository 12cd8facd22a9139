// The console over a remote-like link: Chromium emulates 10 Mbit/s with 50 ms latency (CDP
// Network.emulateNetworkConditions). The first screen must need under 250 KB on the wire, arrive
// compressed, and a reload must fetch only index.html (hashed assets come from the cache).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CDPSession } from 'playwright-core';
import { useConsole } from './support/console-session.ts';

const FIRST_SCREEN_BUDGET = 250 * 1024;
const LINK = {
  offline: false,
  latency: 50,
  downloadThroughput: (10_000_000 / 8) | 0,
  uploadThroughput: (10_000_000 / 8) | 0,
};

interface Transfer {
  url: string;
  bytes: number;
  encoding: string | undefined;
  fromCache: boolean;
}

/** Records every response of the page: bytes on the wire, its Content-Encoding, whether the cache answered. */
function recordTransfers(cdp: CDPSession): { transfers: Transfer[]; reset(): void } {
  const byId = new Map<string, Transfer>();
  // Chromium may say a request was served from its cache before the response event arrives.
  const cached = new Set<string>();
  let transfers: Transfer[] = [];
  cdp.on('Network.requestServedFromCache', (event) => {
    cached.add(event.requestId);
    const transfer = byId.get(event.requestId);
    if (transfer) transfer.fromCache = true;
  });
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    const transfer: Transfer = {
      url: event.response.url,
      bytes: 0,
      encoding: headers['content-encoding'],
      fromCache: cached.has(event.requestId) || Boolean(event.response.fromDiskCache),
    };
    byId.set(event.requestId, transfer);
    transfers.push(transfer);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const transfer = byId.get(event.requestId);
    if (transfer) transfer.bytes = event.encodedDataLength;
  });
  return {
    get transfers() {
      return transfers;
    },
    reset() {
      transfers = [];
      byId.clear();
      cached.clear();
    },
  };
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

describe('console load over a 10 Mbit/s, 50 ms link', () => {
  const app = useConsole({ server: { adminPassword: undefined } });
  const { dashboard } = app.screens;

  it('shows the first screen with under 250 KB compressed, then a reload fetches only index.html', async (context) => {
    const { browser, page } = app;
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', LINK);
    const log = recordTransfers(cdp);

    const started = Date.now();
    await app.open();
    await dashboard.firstContent();
    const firstScreenMs = Date.now() - started;
    const firstScreen = [...log.transfers];
    await dashboard.complete();
    const completeMs = Date.now() - started;
    await page.waitForLoadState('networkidle');

    const assets = firstScreen.filter((t) => !t.url.includes('/pbxcore/'));
    const firstBytes = firstScreen.reduce((sum, t) => sum + t.bytes, 0);
    for (const asset of assets.filter((t) => /\.(js|css|html)$|\/$/.test(new URL(t.url).pathname))) {
      assert.equal(asset.encoding, 'br', `${asset.url} is sent compressed`);
    }

    log.reset();
    const reloadStarted = Date.now();
    await page.reload();
    await dashboard.complete();
    const reloadMs = Date.now() - reloadStarted;
    // The favicon is not part of the build (Chromium asks for it and gets the page's 404 or shell).
    const fetched = log.transfers
      .filter((t) => !t.fromCache && !t.url.includes('/pbxcore/') && !t.url.endsWith('/favicon.ico'))
      .map((t) => new URL(t.url).pathname);
    const reloadBytes = log.transfers.filter((t) => !t.fromCache).reduce((sum, t) => sum + t.bytes, 0);

    context.diagnostic(
      JSON.stringify({
        firstScreenKB: kb(firstBytes),
        firstScreenFiles: assets.length,
        firstScreenMs,
        completeMs,
        reloadFetched: fetched,
        reloadKB: kb(reloadBytes),
        reloadMs,
      }),
    );
    assert.ok(firstBytes < FIRST_SCREEN_BUDGET, `first screen: ${kb(firstBytes)} KB`);
    assert.deepEqual(fetched, ['/']);
  });
});
