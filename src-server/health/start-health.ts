import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import type { FirewallService } from '../firewall/firewall-service.ts';
import { readAmiSettings } from '../peers/ami-settings.ts';
import type { PeerMonitor } from '../peers/peer-monitor.ts';
import { isSqliteBusy } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import type { CrowdsecLink } from '../upstream/crowdsec-link.ts';
import type { HealthCheckKind } from '../wire/types.ts';
import { consumerFindings, PollIntervals } from './consumer-checks.ts';
import { accountFlagFinding, capDropsOwnFinding } from './event-checks.ts';
import type { Finding } from './finding.ts';
import { HealthBoard } from './health-board.ts';
import { amiFindings, HeldSince, lapiFindings, QueueGrowth } from './link-checks.ts';
import { SurgeWatch } from './surge.ts';

/** How often the checks run (each is cheap: memory, a key list, at most one COUNT a minute). */
export const HEALTH_TICK_MS = 15_000;
const QUEUE_SAMPLE_MS = 60_000;
/** The kinds a tick finds again from scratch; the others come from bus events. */
const TICK_KINDS: ReadonlySet<HealthCheckKind> = new Set([
  'bouncer-silent',
  'feed-not-fetched',
  'no-consumer',
  'key-refused',
  'lapi-down',
  'lapi-queue',
  'ami-down',
  'attack-surge',
]);

export interface HealthDeps {
  db: Db;
  clock: Clock;
  bus: ServerBus;
  logger: Logger;
  firewall: Pick<FirewallService, 'cursors' | 'bans' | 'hosts'>;
  crowdsecLink: Pick<CrowdsecLink, 'status' | 'queue'>;
  peers: Pick<PeerMonitor, 'connected' | 'amiClient'>;
}

/** The running health checks (`services.health`). */
export interface HealthArea {
  board: HealthBoard;
  /** Runs every check now (the timer calls it; tests call it after moving the clock). */
  evaluate(): void;
  stop(): void;
}

/**
 * Starts the health checks (docs/health.md): a timer runs the polled checks with the server's
 * clock, bus events raise the others, and the board turns each change into one `health-changed`.
 */
export function startHealth(deps: HealthDeps): HealthArea {
  const { db, clock, bus, firewall, crowdsecLink, peers } = deps;
  const board = new HealthBoard(db, bus, clock, deps.logger);
  const startedAt = clock.now();
  const intervals = new PollIntervals();
  const held = new HeldSince();
  const queue = new QueueGrowth();
  const surge = new SurgeWatch(startedAt);
  let lastQueueSample = -Infinity;

  const apply = ({ id, finding }: { id: string; finding?: Finding }) =>
    finding ? board.raise(finding) : board.clear(id);
  const offs = [
    bus.on('security-failure', (event) => surge.record('failures', event.ip, event.category, clock.now())),
    bus.on('account-flagged', (event) => apply(accountFlagFinding(event.flag))),
    bus.on('key-capped-own', (event) => apply(capDropsOwnFinding(event))),
  ];
  let active = true;
  firewall.bans.onChange((change) => {
    if (!active || change.reset) return;
    const before = new Set(change.removed.map((ban) => ban.id));
    // This PBX's intrusion bans: the operator's own and the LAPI's decisions are no attack on it.
    for (const ban of change.added)
      if (!before.has(ban.id) && ban.category !== 'manual' && ban.category !== 'upstream')
        surge.record('bans', ban.ip, ban.category, clock.now());
  });

  const evaluate = () => {
    const now = clock.now();
    const link = crowdsecLink.status.status;
    try {
      if (link.push.enabled && now - lastQueueSample >= QUEUE_SAMPLE_MS) {
        lastQueueSample = now;
        queue.sample(now, crowdsecLink.queue.length);
      }
      const ami = readAmiSettings(db);
      board.sync(TICK_KINDS, [
        ...consumerFindings(
          {
            db,
            now,
            startedAt,
            cursors: firewall.cursors.all(),
            refusedFormerHosts: (since) => firewall.hosts.refusedFormerHosts(since),
            bansInForce: () => firewall.bans.anyInForce(),
          },
          intervals,
        ),
        ...lapiFindings(link, now, held),
        ...(link.push.enabled ? queue.finding(now) : []),
        ...amiFindings(
          { enabled: ami.enabled, connected: peers.connected, lastError: peers.amiClient?.lastError ?? null },
          now,
          held,
        ),
        ...surge.evaluate(now),
      ]);
    } catch (error) {
      // A worker holding the lock for long (an import) is no news: the checks run again at the next tick.
      if (!isSqliteBusy(error)) deps.logger.warn({ err: error }, 'health checks failed; run again at the next tick');
    }
    board.remind();
  };
  const timer = setInterval(evaluate, HEALTH_TICK_MS);
  timer.unref();
  return {
    board,
    evaluate,
    stop() {
      active = false;
      clearInterval(timer);
      for (const off of offs) off();
    },
  };
}
