import type Router from '@koa/router';
import type { Logger } from 'pino';
import { startAudit } from './audit/start-audit.ts';
import { startAuth } from './auth/start-auth.ts';
import { ServerBus } from './bus.ts';
import { systemClock, type Clock } from './clock.ts';
import { resolveConfig } from './config/load.ts';
import type { ServerConfig, ServerConfigInput } from './config/schema.ts';
import { createFirewallService } from './firewall/firewall-service.ts';
import { startHealth } from './health/start-health.ts';
import { startHttp, type HttpArea } from './http/start-http.ts';
import { createLogger } from './logger.ts';
import { startNotifications } from './notifications/start-notifications.ts';
import { startPeerService } from './peers/peer-service.ts';
import { generalSettings } from './queue/general-settings.ts';
import { startQueue } from './queue/start-queue.ts';
import type { Services } from './services.ts';
import { readSetting } from './storage/settings.ts';
import { startStorage } from './storage/start-storage.ts';
import { loadResources } from './startup/resources.ts';
import { ROUTE_REGISTRARS } from './startup/routes.ts';
import { startTerminalLog } from './terminal-log.ts';
import { startCrowdsecLink } from './upstream/crowdsec-link.ts';

export { ConfigError, configFromEnv, resolveConfig } from './config/load.ts';
export type { ServerConfig, ServerConfigInput } from './config/schema.ts';

export interface CreateServerOptions extends ServerConfigInput {
  clock?: Clock;
  logger?: Logger;
}

export interface PbxServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Base URL once started, e.g. http://127.0.0.1:8088 */
  readonly url: string;
  readonly port: number;
  readonly config: ServerConfig;
  /** Shared services, for hosts and tests that need the database or the bus. */
  readonly services: Services;
  /** The router of every route outside the v3 grammar, for the OpenAPI coverage test. */
  readonly router: Router;
}

/** Builds the server. Nothing is opened until start(); config errors throw ConfigError at once. */
export function createServer(options: CreateServerOptions = {}): PbxServer {
  const { clock = systemClock, logger: givenLogger, ...input } = options;
  const config = resolveConfig(input);
  const logger = givenLogger ?? createLogger(config.logLevel);
  let services: Services | undefined;
  let http: HttpArea | undefined;
  let port = 0;
  /** Each started area's stop, in start order: stop() runs them in reverse. */
  let stops: (() => unknown)[] = [];
  /** Records an area's stop as soon as it has started, so a later failure still undoes it. */
  const track = <Area extends { stop(): unknown }>(area: Area): Area => {
    stops.push(() => area.stop());
    return area;
  };
  const notStarted = () => new Error('The server is not started.');

  return {
    config,
    get port() {
      return port;
    },
    get url() {
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    },
    get services() {
      if (!services) throw notStarted();
      return services;
    },
    get router() {
      if (!http) throw notStarted();
      return http.router;
    },

    async start() {
      stops = [];
      const storage = track(startStorage(config.dataDir));
      const { dataDir, databaseFile, db } = storage;
      const { registry, modules, resourceModules } = await loadResources(config, { dataDir, db, logger });
      const bus = new ServerBus((err, event) => logger.warn({ err, event }, 'bus handler failed; the process goes on'));
      const base = { db, clock, bus, logger };
      const { stop: stopQueue, ...queued } = startQueue({ ...base, config, databaseFile, resourceModules, modules });
      stops.push(stopQueue);
      const auth = await startAuth({ ...base, dataDir }, config.adminPassword);
      const general = () => readSetting(db, generalSettings);
      const firewall = track(
        createFirewallService({ ...base, banHistoryRetentionDays: () => general().banHistoryRetentionDays }),
      );
      stops.push(startTerminalLog({ ...base, bans: firewall.bans }));
      const peers = track(await startPeerService({ ...base, registered: firewall.registered }));
      const { audit } = track(startAudit({ ...base, retentionDays: () => general().auditRetentionDays }));
      const { notifications } = track(startNotifications(base));
      const settle = () => void firewall.snapshots.get();
      const { bans, state, registered } = firewall;
      const linkDeps = { bans, state, registered, settle, retryMaxMs: config.linkRetryMaxMs };
      const crowdsecLink = track(startCrowdsecLink({ ...base, ...linkDeps }));
      const health = track(startHealth({ ...base, firewall, crowdsecLink, peers: peers.monitor }));
      const domain = { registry, modules, auth, firewall, audit, notifications, crowdsecLink, health };
      services = { ...base, ...queued, ...domain, peers: peers.monitor, config };
      http = track(await startHttp(services, ROUTE_REGISTRARS));
      port = http.port;
    },

    async stop() {
      const wasRunning = services !== undefined;
      for (const stop of stops.splice(0).reverse()) await stop();
      http = undefined;
      services = undefined;
      if (wasRunning) logger.info('server stopped');
      logger.flush?.();
    },
  };
}
