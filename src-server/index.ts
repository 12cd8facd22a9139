import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import { listenUrls, startTerminalLog } from './terminal-log.ts';
import Router from '@koa/router';
import { applyInitialAdminPassword } from './auth/admin-bootstrap.ts';
import { createAuthRuntime } from './auth/runtime.ts';
import { createFirewallService } from './firewall/firewall-service.ts';
import { registerAuthRoutes } from './http/auth-routes.ts';
import { BOUNCER_PREFIX, registerBouncerRoutes } from './http/bouncer-routes.ts';
import { registerBlocklistRoutes } from './http/blocklist-route.ts';
import { registerEventsRoutes } from './http/events-route.ts';
import type { RouteRegistrar } from './http/route-registrar.ts';
import { banGuard, requestRateGuard } from './http/guards.ts';
import { startHttpsListener, type HttpsListener } from './http/https-listener.ts';
import { registerSipStatusRoutes } from './http/sip-status-route.ts';
import { registerModuleRoutes } from './legacy/module-routes.ts';
import { registerSessionStartRoutes } from './legacy/session-start.ts';
import { registerLegacySipRoutes } from './legacy/sip-routes.ts';
import { startPeerService } from './peers/peer-service.ts';
import { AsyncJobs } from './queue/async-jobs.ts';
import { ServerBus } from './bus.ts';
import { AuditRecorder } from './audit/recorder.ts';
import { DEFAULT_AUDIT_RETENTION_DAYS } from './audit/store.ts';
import { DEFAULT_BAN_HISTORY_DAYS } from './firewall/ban-queries.ts';
import { systemClock, type Clock } from './clock.ts';
import { resolveConfig } from './config/load.ts';
import type { ServerConfig, ServerConfigInput } from './config/schema.ts';
import { createApp } from './http/app.ts';
import { answerClientError, answerConnect } from './http/middleware.ts';
import { installModules } from './modules/install.ts';
import { GENERAL_SETTINGS_KEY, CachedQueueLimits } from './queue/limits.ts';
import { RequestQueue } from './queue/request-queue.ts';
import { coreResources } from './resources/index.ts';
import { importResourceModule, ResourceRegistry } from './resource-kit/registry.ts';
import type { Services } from './services.ts';
import { openDatabase } from './storage/database.ts';
import { ensurePrivateDataDir } from './storage/private-files.ts';
import { migrate } from './storage/migrations.ts';
import { readSetting, writeSetting } from './storage/settings.ts';
import { packageVersion } from './package-info.ts';
import { RUNTIME_SETTING_KEY, type RuntimeInfo } from './resources/system/actions.ts';
import { httpsDeclaration } from './resources/https/declaration.ts';
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

const runningFromSource = import.meta.url.endsWith('.ts');
/** Idle keep-alive connections live this long: longer than any bouncer's poll interval. */
const KEEP_ALIVE_MS = 65_000;

/** Builds the server. Nothing is opened until start(); config errors throw ConfigError at once. */
export function createServer(options: CreateServerOptions = {}): PbxServer {
  const { clock = systemClock, logger: givenLogger, ...input } = options;
  const config = resolveConfig(input);
  const logger = givenLogger ?? createLogger(config.logLevel);
  let services: Services | undefined;
  let httpServer: Server | undefined;
  let httpsListener: HttpsListener | undefined;
  let router: Router | undefined;
  /** What start() started, stopped in reverse order. */
  let stops: (() => void | Promise<void>)[] = [];
  let port = 0;

  const server: PbxServer = {
    config,
    get port() {
      return port;
    },
    get url() {
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    },
    get services() {
      if (!services) throw new Error('The server is not started.');
      return services;
    },
    get router() {
      if (!router) throw new Error('The server is not started.');
      return router;
    },

    async start() {
      const dataDir = resolve(config.dataDir);
      // 0700 whatever the umask, its files 0600: the database, its key and the JWT secret live here.
      ensurePrivateDataDir(dataDir);
      const databaseFile = join(dataDir, 'pbx.sqlite');
      const db = openDatabase(databaseFile);
      migrate(db);

      const resourceModules = config.resourceModules.map((m) => resolve(m));
      const registry = new ResourceRegistry(coreResources);
      for (const file of resourceModules)
        for (const definition of await importResourceModule(file)) registry.add(definition);
      const modules = await installModules({
        dataDir,
        registry,
        db,
        logger,
        loadTimeoutMs: config.moduleLoadTimeoutMs,
        examples: config.exampleModules,
      });

      const bus = new ServerBus((error, type) =>
        logger.warn({ err: error, event: type }, 'bus handler failed; the process goes on'),
      );
      const queueLimits = new CachedQueueLimits(db, clock);
      const queue = new RequestQueue({
        workerFile: new URL(`./worker/worker${runningFromSource ? '.ts' : '.js'}`, import.meta.url),
        workers: config.workers,
        workerIdleThreads: config.workerIdleThreads,
        workerIdleMs: config.workerIdleMs,
        workerInit: {
          databaseFile,
          resourceModules,
          modules: modules.entries,
          moduleLoadTimeoutMs: config.moduleLoadTimeoutMs,
          checkOutputs: config.checkOutputs,
        },
        execArgv: runningFromSource ? ['--import', 'tsx'] : [],
        limits: queueLimits,
        maxWaitMs: config.maxWaitMs,
        db,
        logger,
      });
      bus.on('resource-changed', (event) => {
        if (event.resource === GENERAL_SETTINGS_KEY) queueLimits.invalidate();
      });
      stops = [];
      const auth = createAuthRuntime(dataDir, clock);
      await applyInitialAdminPassword({ db, clock, logger }, config.adminPassword);
      const firewall = createFirewallService({
        db,
        clock,
        bus,
        logger,
        banHistoryRetentionDays: () =>
          readSetting<{ banHistoryRetentionDays?: number }>(db, GENERAL_SETTINGS_KEY)?.banHistoryRetentionDays ??
          DEFAULT_BAN_HISTORY_DAYS,
      });
      stops.push(() => firewall.stop());
      stops.push(startTerminalLog({ bus, bans: firewall.bans, db, clock, logger }));
      const peers = await startPeerService({ db, bus, logger, clock });
      stops.push(() => peers.stop());
      const asyncJobs = new AsyncJobs({ queue, limits: queueLimits, clock, bus, logger });
      // Workers record the writes they run; the web thread records rejected keys and failed logins, and prunes.
      const audit = new AuditRecorder({
        db,
        now: () => clock.now(),
        retentionDays: () =>
          readSetting<{ auditRetentionDays?: number }>(db, GENERAL_SETTINGS_KEY)?.auditRetentionDays ??
          DEFAULT_AUDIT_RETENTION_DAYS,
        onError: (error) => logger.error({ err: error }, 'audit log'),
      });
      const stopAuditFeed = bus.on('access-rejected', (event) => audit.reject(event.entry));
      stops.push(() => {
        stopAuditFeed();
        audit.stop();
      });
      const crowdsecLink = startCrowdsecLink({
        db,
        clock,
        bus,
        logger,
        bans: firewall.bans,
        state: firewall.state,
        settle: () => void firewall.snapshots.get(),
      });
      stops.push(() => crowdsecLink.stop());
      const built: Services = {
        config,
        db,
        logger,
        clock,
        bus,
        registry,
        queue,
        queueLimits,
        modules,
        auth,
        asyncJobs,
        firewall,
        peers: peers.monitor,
        audit,
        crowdsecLink,
      };
      services = built;

      // Every route outside the v3 grammar, in match order; all queued ones run the one pipeline (http/pipeline.ts).
      router = new Router();
      // The feed first: the export's catch-all below would answer its path with 404.
      const registrars: RouteRegistrar[] = [
        registerBlocklistRoutes,
        registerBouncerRoutes,
        registerAuthRoutes,
        registerSessionStartRoutes,
        registerSipStatusRoutes,
        registerLegacySipRoutes,
        registerModuleRoutes,
        registerEventsRoutes,
      ];
      for (const register of registrars) {
        const stop = register(router, built);
        if (stop) stops.push(stop);
      }
      const guards = [
        banGuard(firewall.bans, (path) => path.startsWith(BOUNCER_PREFIX)),
        requestRateGuard(firewall.state, clock),
      ];
      const app = createApp(built, guards, router);
      // Bouncers poll every 5-10 s on one keep-alive connection: keep it open between polls (Node's
      // default of 5 s closes it just before each poll, and a client reusing it then sees a reset).
      httpServer = createHttpServer(
        { keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1000 },
        app.callback(),
      );
      httpServer.on('clientError', answerClientError);
      httpServer.on('connect', answerConnect);
      await new Promise<void>((resolveListen, reject) => {
        httpServer!.once('error', reject);
        httpServer!.listen(config.port, config.host, () => {
          httpServer!.off('error', reject);
          resolveListen();
        });
      });
      port = (httpServer.address() as AddressInfo).port;
      const runtime: RuntimeInfo = {
        version: packageVersion,
        startedAt: clock.now(),
        httpPort: port,
        httpsPort: null,
        bindHost: config.host,
      };
      // getInfo's bouncer URLs follow the HTTPS port as it changes live.
      const https = await startHttpsListener(built, app.callback(), (httpsPort) =>
        writeSetting(db, RUNTIME_SETTING_KEY, { ...runtime, httpsPort }),
      );
      httpsListener = https;
      stops.push(
        bus.on('resource-changed', (event) => {
          if (event.resource === httpsDeclaration.name) void https.apply();
        }),
      );
      const urls = listenUrls(config.host, port);
      logger.info({ host: config.host, port, urls, dataDir }, `server listening on ${urls.join(', ')}`);
    },

    async stop() {
      const wasRunning = services !== undefined;
      await httpsListener?.close();
      httpsListener = undefined;
      if (httpServer) {
        const closed = new Promise<void>((r) => httpServer!.close(() => r()));
        httpServer.closeAllConnections();
        await closed;
        httpServer = undefined;
      }
      for (const stop of stops.reverse()) await stop();
      stops = [];
      router = undefined;
      if (services) {
        await services.queue.close();
        services.db.close();
        services = undefined;
      }
      if (wasRunning) logger.info('server stopped');
      logger.flush?.();
    },
  };
  return server;
}
