import { BouncerHosts } from './bouncer-hosts.ts';
import { BOUNCER_PREFIX, NEW_OPEN, registerBouncerRoutes } from '../http/bouncer-routes.ts';
import { SnapshotCompressor } from './compressed-snapshot.ts';
import { CursorStore } from './cursor-store.ts';
import { DecisionLog } from './decision-log.ts';
import { DecisionSnapshotCache } from './decision-snapshot.ts';
import { DeletedTails } from './deleted-tails.ts';
import type { Feature } from '../features.ts';
import type { Services } from '../services.ts';
import { normalizeAddress } from './addresses.ts';
import { banGuard } from './ban-guard.ts';
import { requestRateGuard } from './request-rate.ts';
import { BanStore } from './ban-store.ts';
import { FirewallState } from './firewall-state.ts';
import { IntrusionDetector } from './intrusion-detector.ts';

/** Resources whose writes change the firewall configuration the web thread caches. */
const CONFIG_RESOURCES = new Set(['firewall', 'network-filters', 'fail2ban']);
const PRUNE_EVERY_MS = 60_000;
/** Cursor renewals and poll statistics are batched this long (a new cursor version is written at once). */
const CURSOR_FLUSH_MS = 1000;

/** The web thread's firewall: what other features may reach through `services.firewall`. */
export interface FirewallService {
  state: FirewallState;
  bans: BanStore;
  detector: IntrusionDetector;
  snapshots: DecisionSnapshotCache;
  log: DecisionLog;
  compressor: SnapshotCompressor;
  deletedTails: DeletedTails;
  cursors: CursorStore;
  hosts: BouncerHosts;
}

/** Builds the firewall's web-thread parts from the database. */
export function createFirewallService(services: Services): FirewallService {
  const state = new FirewallState(services.db);
  const bans = new BanStore(services.db, services.clock);
  const log = new DecisionLog(services.db);
  return {
    state,
    bans,
    log,
    detector: new IntrusionDetector(state, bans, services.clock),
    snapshots: new DecisionSnapshotCache(state, bans, log, services.clock),
    compressor: new SnapshotCompressor(NEW_OPEN),
    deletedTails: new DeletedTails(log),
    cursors: new CursorStore(services.db, services.clock),
    hosts: new BouncerHosts(services.db, services.clock),
  };
}

/**
 * Network filters, intrusion bans and the CrowdSec-compatible export. Bans are decided and
 * stored here on the web thread (it receives the bus events); workers report their writes
 * through `resource-changed` and `bans-lifted`.
 */
export const firewallFeature: Feature = {
  name: 'firewall',
  start(services) {
    const firewall = createFirewallService(services);
    services.firewall = firewall;
    const prune = () => {
      firewall.bans.sweep();
      firewall.cursors.forgetRevokedKeys();
      firewall.hosts.prune(services.clock.now());
      firewall.log.prune(services.clock.now(), firewall.cursors.oldestLiveVersion());
    };

    const unsubscribe = [
      services.bus.on('resource-changed', (event) => {
        if (CONFIG_RESOURCES.has(event.resource)) firewall.state.reload();
      }),
      services.bus.on('security-failure', (event) => {
        firewall.detector.recordFailure(event.category, event.ip, event.reason);
      }),
      services.bus.on('bans-added', (event) => firewall.bans.reloadIp(event.ip)),
      services.bus.on('bans-lifted', (event) => {
        const ip = normalizeAddress(event.ip) ?? event.ip;
        firewall.bans.reloadIp(ip);
        firewall.detector.forgetIp(ip);
      }),
    ];
    // Publish now: whatever changed while the server was stopped gets its version before any poll.
    firewall.snapshots.get();
    prune();
    const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
    pruneTimer.unref();
    const flushTimer = setInterval(() => {
      firewall.cursors.flush();
      firewall.hosts.flush();
    }, CURSOR_FLUSH_MS);
    flushTimer.unref();

    return {
      guards: [banGuard(firewall.bans, (path) => path.startsWith(BOUNCER_PREFIX)), requestRateGuard(firewall.state, services.clock)],
      routes: (router) => registerBouncerRoutes(router, { services, ...firewall }),
      stop() {
        clearInterval(pruneTimer);
        clearInterval(flushTimer);
        firewall.cursors.flush();
        firewall.hosts.flush();
        for (const off of unsubscribe) off();
      },
    };
  },
};
