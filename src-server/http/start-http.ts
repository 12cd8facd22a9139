import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import Router from '@koa/router';
import { packageVersion } from '../package-info.ts';
import { httpsDeclaration } from '../resources/https/declaration.ts';
import { RUNTIME_SETTING_KEY, type RuntimeInfo } from '../resources/system/runtime-setting.ts';
import type { Services } from '../services.ts';
import { writeSetting } from '../storage/settings.ts';
import { listenUrls } from '../terminal-log.ts';
import { createApp } from './app.ts';
import { BOUNCER_PREFIX } from './bouncer-routes.ts';
import { banGuard, requestRateGuard } from './guards.ts';
import { startHttpsListener } from './https-listener.ts';
import { answerClientError, answerConnect } from './middleware.ts';
import type { RouteRegistrar } from './route-registrar.ts';

/** Idle keep-alive connections live this long: longer than any bouncer's poll interval. */
const KEEP_ALIVE_MS = 65_000;

export interface HttpArea {
  /** The router of every route outside the v3 grammar. */
  router: Router;
  port: number;
  /** Closes the listeners (HTTPS, then HTTP with its open connections), then what the routes hold open. */
  stop(): Promise<void>;
}

/**
 * The router (`registrars`, in match order), the guards and the Koa app, the HTTP listener, then the
 * HTTPS one, which follows the `https` settings live. Logs the listen URLs once both are up.
 */
export async function startHttp(services: Services, registrars: readonly RouteRegistrar[]): Promise<HttpArea> {
  const { config, db, bus, clock, firewall, logger } = services;
  const router = new Router();
  const stops: (() => void | Promise<void>)[] = [];
  for (const register of registrars) {
    const stop = register(router, services);
    if (stop) stops.push(stop);
  }
  const guards = [
    banGuard(firewall.bans, (path) => path.startsWith(BOUNCER_PREFIX)),
    requestRateGuard(firewall.state, clock),
  ];
  const app = createApp(services, guards, router);
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const httpServer = await listen(app.callback(), config.port, config.host);
    stops.push(() => closeServer(httpServer));
    const port = (httpServer.address() as AddressInfo).port;
    const runtime: RuntimeInfo = {
      version: packageVersion,
      startedAt: clock.now(),
      httpPort: port,
      httpsPort: null,
      bindHost: config.host,
    };
    // getInfo's bouncer URLs follow the HTTPS port as it changes live.
    const https = await startHttpsListener(services, app.callback(), (httpsPort) =>
      writeSetting(db, RUNTIME_SETTING_KEY, { ...runtime, httpsPort }),
    );
    stops.push(() => https.close());
    stops.push(
      bus.on('resource-changed', (event) => {
        if (event.resource === httpsDeclaration.name) void https.apply();
      }),
    );
    const urls = listenUrls(config.host, port);
    const dataDir = resolve(config.dataDir);
    logger.info({ host: config.host, port, urls, dataDir }, `server listening on ${urls.join(', ')}`);
    return { router, port, stop: stopAll };
  } catch (error) {
    await stopAll(); // what started before the failure, as stop() would have
    throw error;
  }
}

/** Listens on `port`; rejects on a listen error (port taken, address not here). */
async function listen(callback: RequestListener, port: number, host: string): Promise<Server> {
  // Bouncers poll every 5-10 s on one keep-alive connection: keep it open between polls (Node's
  // default of 5 s closes it just before each poll, and a client reusing it then sees a reset).
  const server = createHttpServer({ keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1000 }, callback);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  return server;
}

/** Closes the listener and every open connection (keep-alive ones included). */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  await closed;
}
