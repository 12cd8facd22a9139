// What a page fetched, as Chromium's DevTools protocol reports it: shared by
// e2e/console-load-speed.test.ts (what is fetched, how many bytes) and bench/console-load.ts (how long).
import type { CDPSession } from 'playwright-core';

/** The link the console is judged over: 10 Mbit/s both ways, 50 ms latency. */
export const LINK = {
  offline: false,
  latency: 50,
  downloadThroughput: (10_000_000 / 8) | 0,
  uploadThroughput: (10_000_000 / 8) | 0,
};

export interface Transfer {
  url: string;
  bytes: number;
  encoding: string | undefined;
  fromCache: boolean;
}

/** Records every response of the page: bytes on the wire, its Content-Encoding, whether the cache answered. */
export function recordTransfers(cdp: CDPSession): { transfers: Transfer[]; reset(): void } {
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

/** KB with one decimal. */
export const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
