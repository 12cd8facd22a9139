// A real HTTP server on a loopback port that answers the console's requests as the test scripts, and a
// `fetch` that resolves the console's same-origin paths against it, as the browser resolves them against the page.
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { enterLocalhostMode } from '../lib/auth-session.ts';

export interface SeenRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface Answer {
  status?: number;
  /** Sent as JSON; a string is sent as it is. */
  body?: unknown;
}

export interface ApiTestServer {
  origin: string;
  /** Every request so far, oldest first. */
  seen: SeenRequest[];
  /** How the next requests are answered: by `method url`, e.g. `GET /pbxcore/api/v3/fail2ban`. */
  answer(route: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

/** Starts the server and points the global `fetch` at it until `close()`. */
export async function startApiTestServer(): Promise<ApiTestServer> {
  const routes = new Map<string, Answer[]>();
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
    const queue = routes.get(`${req.method} ${req.url!.split('?')[0]}`) ?? [];
    // The last answer of a route repeats; an unknown route is a 404 without an envelope.
    const next = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 404, body: 'not found' };
    res.writeHead(next.status ?? 200, { 'content-type': 'application/json' });
    res.end(typeof next.body === 'string' ? next.body : JSON.stringify(next.body ?? null));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => realFetch(typeof input === 'string' ? new URL(input, origin) : input, init);
  return {
    origin,
    seen,
    answer: (route, ...answers) => routes.set(route, answers),
    async close() {
      globalThis.fetch = realFetch;
      server.close();
      server.closeAllConnections(); // fetch keeps its connections alive
      await once(server, 'close');
    },
  };
}

/** For a describe block: a server started before its tests, the console on localhost (no login), closed after. */
export function useLocalApiTestServer(): ApiTestServer {
  const server = {} as ApiTestServer;
  before(async () => {
    Object.assign(server, await startApiTestServer());
    enterLocalhostMode();
  });
  after(() => server.close());
  return server;
}

/** The SPEC envelope of a successful answer. */
export const ok = (data: unknown, messages: Record<string, string[]> = {}, extra: object = {}): Answer => ({
  body: { result: true, data, messages, ...extra },
});

/** The SPEC envelope of a failed answer. */
export const failed = (status: number, ...errors: string[]): Answer => ({
  status,
  body: { result: false, data: null, messages: { error: errors } },
});
