import type { Logger } from 'pino';
import type { ServerBus } from './bus.ts';
import type { Clock } from './clock.ts';
import type { ServerConfig } from './config/schema.ts';
import type { CachedQueueLimits } from './queue/limits.ts';
import type { RequestQueue } from './queue/request-queue.ts';
import type { ResourceRegistry } from './resources/registry.ts';
import type { Db } from './storage/database.ts';
import type { InstalledModules } from './modules/install.ts';
import type { AsyncJobs } from './queue/async-jobs.ts';
import type { FirewallService } from './firewall/feature.ts';
import type { PeerMonitor } from './peers/peer-monitor.ts';

/** What the web thread's features share. Built once in createServer. */
export interface Services {
  config: ServerConfig;
  db: Db;
  logger: Logger;
  clock: Clock;
  bus: ServerBus;
  registry: ResourceRegistry;
  queue: RequestQueue;
  queueLimits: CachedQueueLimits;
  /** Extension modules found at start, with their status (set by createServer). */
  modules?: InstalledModules;
  /** Asynchronous requests and their push channel (set by the async-requests feature). */
  asyncJobs?: AsyncJobs;
  /** Bans, filters and the bouncer export (set by the firewall feature). */
  firewall?: FirewallService;
  /** The AMI connection and live peer state (set by the peers feature). */
  peers?: PeerMonitor;
}
