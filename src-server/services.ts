import type { Logger } from 'pino';
import type { AuditRecorder } from './audit/recorder.ts';
import type { AuthRuntime } from './auth/runtime.ts';
import type { ServerBus } from './bus.ts';
import type { Clock } from './clock.ts';
import type { ServerConfig } from './config/schema.ts';
import type { FirewallService } from './firewall/firewall-service.ts';
import type { HealthArea } from './health/start-health.ts';
import type { InstalledModules } from './modules/install.ts';
import type { Notifications } from './notifications/start-notifications.ts';
import type { PeerMonitor } from './peers/peer-monitor.ts';
import type { AsyncJobs } from './queue/async-jobs.ts';
import type { CachedQueueLimits } from './queue/limits.ts';
import type { RequestQueue } from './queue/request-queue.ts';
import type { ResourceRegistry } from './resource-kit/registry.ts';
import type { Db } from './storage/database.ts';
import type { CrowdsecLink } from './upstream/crowdsec-link.ts';

/**
 * Everything the web thread runs on, built once by createServer in dependency order. Every field
 * is set before the first request; nothing is filled in later. Only createServer and the HTTP
 * layer see this bag: the domain takes the few dependencies it needs by name.
 */
export interface Services {
  readonly config: ServerConfig;
  readonly db: Db;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly bus: ServerBus;
  readonly registry: ResourceRegistry;
  readonly queue: RequestQueue;
  readonly queueLimits: CachedQueueLimits;
  /** Extension modules found at start, with their status. */
  readonly modules: InstalledModules;
  /** The JWT secret and the login limiter. */
  readonly auth: AuthRuntime;
  /** Asynchronous requests and their push channel. */
  readonly asyncJobs: AsyncJobs;
  /** Bans, filters and the bouncer export's snapshot, log and cursors. */
  readonly firewall: FirewallService;
  /** The AMI connection and live peer state. */
  readonly peers: PeerMonitor;
  /** The audit log's web-thread part: rejected keys and failed logins in batches, and the hourly prune. */
  readonly audit: AuditRecorder;
  /** Health notifications: rules, digests and the bounded send queue. */
  readonly notifications: Notifications;
  /** The link to an upstream CrowdSec LAPI: bans pushed as alerts, its decisions pulled and enforced. */
  readonly crowdsecLink: CrowdsecLink;
  /** The health checks: failing consumers, links, surges; each change is a `health-changed` on the bus. */
  readonly health: HealthArea;
}
