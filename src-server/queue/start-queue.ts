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
  const queue = new RequestQueue({
    workerFile: new URL(`../worker/worker${runningFromSource ? '.ts' : '.js'}`, import.meta.url),
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
    execArgv: runningFromSource ? ['--import', 'tsx'] : [],
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
