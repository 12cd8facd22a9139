import type { IncomingHttpHeaders } from 'node:http';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../storage/database.ts';
import type { AuthRuntime } from './runtime.ts';

/**
 * What authentication reads of a request: headers, cookies, method, path and the socket. Koa's
 * Context satisfies it, so auth never imports Koa; tests can hand it a plain object.
 */
export interface AuthRequest {
  readonly method: string;
  readonly path: string;
  readonly protocol: string;
  readonly headers: IncomingHttpHeaders;
  get(field: string): string;
  readonly cookies: { get(name: string): string | undefined };
  readonly req: { readonly socket: { readonly remoteAddress?: string | undefined } };
}

/** What the auth functions need of the running server (the composed services satisfy it). */
export interface AuthDeps {
  readonly config: { readonly trustedHosts: readonly string[] };
  readonly db: Db;
  readonly clock: Clock;
  readonly bus: ServerBus;
  readonly auth: AuthRuntime;
}
