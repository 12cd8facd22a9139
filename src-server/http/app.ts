import type Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Services } from '../services.ts';
import { bodyParser } from './body.ts';
import { serveConsole } from './console-static.ts';
import { notFound } from '../wire/errors.ts';
import { accessLog, errorRenderer, urlLimit } from './middleware.ts';
import { securityHeaders } from './security-headers.ts';
import { V3_PREFIX, v3Handler } from './v3-handler.ts';
import { BAN_IMPORT_MAX_BYTES } from '../resources/firewall/ban-transfer.ts';

const BAN_IMPORT_PATH = '/pbxcore/api/v3/firewall:importBans';

const API_PATH = /^\/(pbxcore|admin-cabinet)(\/|$)/;

/**
 * Assembles the Koa app: security headers, error envelope, access log, limits, guards (run before any routing), body
 * parsing, the routes outside the v3 grammar (`router`), the v3 grammar, the console.
 */
export function createApp(services: Services, guards: Middleware[], router: Router): Koa {
  const app = new Koa({ proxy: false });
  // Koa reports errors it could not answer (a client that hung up mid-response) here; a closed
  // socket is routine, anything else is logged once through pino instead of stderr.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    services.logger.warn({ err: error }, 'response error');
  });
  app.use(securityHeaders);
  app.use(errorRenderer(services.logger));
  app.use(accessLog(services.logger));
  app.use(urlLimit);
  for (const guard of guards) app.use(guard);

  const parseBody = bodyParser(services.config.bodyLimitBytes);
  // A ban list import is the one large body: its own limit, and text bodies (a list posted as a file).
  const parseImport = bodyParser(BAN_IMPORT_MAX_BYTES, true);
  app.use((ctx, next) =>
    ctx.path === BAN_IMPORT_PATH ? parseImport(ctx, next) : API_PATH.test(ctx.path) ? parseBody(ctx, next) : next(),
  );

  app.use(router.routes());

  const handleV3 = v3Handler(services);
  app.use((ctx, next) =>
    ctx.path.startsWith(V3_PREFIX) || ctx.path === V3_PREFIX.slice(0, -1) ? handleV3(ctx, async () => {}) : next(),
  );

  const staticDir = services.config.staticDir;
  if (staticDir && existsSync(join(staticDir, 'index.html'))) {
    // Single-page console: its files (precompressed, hashed assets immutable), then the app shell for unknown non-API GETs.
    for (const middleware of serveConsole(staticDir, (path) => API_PATH.test(path))) app.use(middleware);
  }

  app.use((ctx) => {
    throw notFound(`No endpoint at ${ctx.method} ${ctx.path.slice(0, 200)}.`);
  });
  return app;
}
