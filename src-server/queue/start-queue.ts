import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import type { ServerConfig } from '../config/schema.ts';
import type { Db } from '../storage/database.ts';
import type { ModuleEntry } from '../wire/types.ts';
import { AsyncJobs } from './async-jobs.ts';
import { GENERAL_SETTINGS_KEY, CachedQueueLimits } from './limits.ts';
import { RequestQueue } from './request-queue.ts';

const runningFromSource = import.meta.url.endsWith('.ts');

/**
 * piscina loads the entry with require() first and import() only if that throws. Node 20's require() of an ES
 * module (on by default since 20.19) can abort the whole process with a V8 fatal error ("IsGraphAsync must be used
 * on an instantiated module") when it meets a module graph an import() is still loading: it did once in the suite.
 * Off in the worker threads, piscina's require() throws at once and the entry loads through import(), as before
 * 20.19. Only where this Node knows the flag (a newer Node may not).
 */
const NO_REQUIRE_ESM = process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module')
  ? ['--no-experimental-require-module']
  : [];

/**
 * The worker threads' entry. Built: worker.js beside this file. From source (tests, development): worker.ts
 * through tsx, unless PBX_BUILT_SERVER names the build of this same tree (the test runner makes it first with
 * `tsc -b`, so it is never stale): each thread then loads compiled modules, 0.3 s of CPU less, and a suite starts
 * hundreds of them; the runner also bundles the entry into one file (PBX_TEST_WORKER, .ci/bundle-tests.mjs), which
 * loads in half that again. Resource modules written in TypeScript need tsx's hook, so they keep the source worker.
 */
function workerEntry(resourceModules: string[]): { file: URL; execArgv: string[] } {
  if (!runningFromSource) return { file: new URL('../worker/worker.js', import.meta.url), execArgv: NO_REQUIRE_ESM };
  const built = process.env.PBX_BUILT_SERVER;
  const bundled = process.env.PBX_TEST_WORKER;
  if (built && !resourceModules.some((file) => file.endsWith('.ts')))
    return { file: pathToFileURL(bundled ?? join(built, 'worker', 'worker.js')), execArgv: NO_REQUIRE_ESM };
  return { file: new URL('../worker/worker.ts', import.meta.url), execArgv: [...NO_REQUIRE_ESM, '--import', 'tsx'] };
}

export interface QueueDeps {
  config: ServerConfig;
  db: Db;
  databaseFile: string;
  bus: ServerBus;
  clock: Clock;
  logger: Logger;
  /** Resource files given by the host (absolute), and the modules installed: workers import exactly these. */
  resourceModules: string[];
  modules: { entries: ModuleEntry[] };
}

export interface QueueArea {
  queue: RequestQueue;
  queueLimits: CachedQueueLimits;
  /** X-Async-Channel requests, run on the same queue. */
  asyncJobs: AsyncJobs;
  /** Ends the worker threads. */
  stop(): Promise<void>;
}

/**
 * The bounded queue, its worker pool and the async jobs on top; the limits are read again as soon
 * as general settings change.
 */
export function startQueue(deps: QueueDeps): QueueArea {
  const { config, db, bus, clock, logger } = deps;
  const queueLimits = new CachedQueueLimits(db, clock);
  const worker = workerEntry(deps.resourceModules);
  const queue = new RequestQueue({
    workerFile: worker.file,
    workers: config.workers,
    workerIdleThreads: config.workerIdleThreads,
    workerIdleMs: config.workerIdleMs,
    workerInit: {
      databaseFile: deps.databaseFile,
      resourceModules: deps.resourceModules,
      modules: deps.modules.entries,
      moduleLoadTimeoutMs: config.moduleLoadTimeoutMs,
      checkOutputs: config.checkOutputs,
    },
    execArgv: worker.execArgv,
    limits: queueLimits,
    maxWaitMs: config.maxWaitMs,
    db,
    bus,
    logger,
  });
  const stopInvalidation = bus.on('resource-changed', (event) => {
    if (event.resource === GENERAL_SETTINGS_KEY) queueLimits.invalidate();
  });
  return {
    queue,
    queueLimits,
    asyncJobs: new AsyncJobs({ queue, limits: queueLimits, clock, logger }),
    async stop() {
      stopInvalidation();
      await queue.close();
    },
  };
}
