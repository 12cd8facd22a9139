import { createServer, type Server } from 'node:http';
import { closeNow, listenOnLoopback } from './loopback-server.ts';

/** One request a stand-in LAPI received, with every header and the body as text. */
export interface LapiRequestSeen {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A stand-in CrowdSec LAPI on 127.0.0.1 (port 0) that accepts any login and serves an empty stream. */
export interface FakeLapi {
  url: string;
  requests: LapiRequestSeen[];
  /** Everything received, as text, so a secret cannot hide in an odd header or field. */
  received(): string;
  /** Polls `predicate` (every 20 ms, at most `timeoutMs`) until it holds; throws naming `what` otherwise. */
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeLapi(): Promise<FakeLapi> {
  const requests: LapiRequestSeen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (path === '/v1/watchers/login')
        return res.end(
          JSON.stringify({ code: 200, expire: new Date(Date.now() + 3_600_000).toISOString(), token: 't' }),
        );
      if (path === '/v1/decisions/stream') return res.end(JSON.stringify({ new: [], deleted: [] }));
      if (req.method === 'GET') return res.end('[]');
      res.end('{}');
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    received: () => JSON.stringify(requests),
    async waitFor(predicate, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`fake LAPI: timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => closeNow(server),
  };
}
