import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import { normalizeAddress } from './addresses.ts';
import { absorbImportedBans } from './ban-import-absorb.ts';
import { pruneBanHistory } from './ban-queries.ts';
import { BanStore } from './ban-store.ts';
import { createBouncerExport, type BouncerExport } from './bouncer-export.ts';
import { BouncerHosts } from './bouncer-hosts.ts';
import { NEW_OPEN, SnapshotCompressor } from './compressed-snapshot.ts';
import { CursorStore } from './cursor-store.ts';
import { DecisionLog } from './decision-log.ts';
import { DecisionSnapshotCache } from './decision-snapshot.ts';
import { DeletedTails } from './deleted-tails.ts';
import { FirewallState } from './firewall-state.ts';
import { IntrusionDetector } from './intrusion-detector.ts';
import { KeyDeliveryState, storedAggregates } from './key-delivery-state.ts';
import { KeyStreams } from './key-stream.ts';
import { KeyViews } from './key-view.ts';

/** Resources whose writes change the firewall configuration the web thread caches. */
const CONFIG_RESOURCES = new Set(['firewall', 'network-filters', 'fail2ban']);
const PRUNE_EVERY_MS = 60_000;
/** Cursor renewals and poll statistics are batched this long (a new cursor version is written at once). */
const CURSOR_FLUSH_MS = 1000;

/** What the firewall needs of the running server. */
export interface FirewallDeps {
  db: Db;
  clock: Clock;
  bus: ServerBus;
  logger: Logger;
  /** The current ban history retention (general-settings `banHistoryRetentionDays`). */
  banHistoryRetentionDays(): number;
}

/** The web thread's firewall: bans, filters, the decision snapshot and log, cursors and bouncer hosts. */
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
  /** Capped and aggregating keys' own views (`entriesForKey`), shared by their stream and feed. */
  views: KeyViews;
  /** The `/firewall-bouncer` export's one entry point, built from the parts above. */
  bouncerExport: BouncerExport;
  /** Unsubscribes from the bus, stops the timers and flushes batched cursor writes. */
  stop(): void;
}

/**
 * Builds the firewall from the database and starts it. Bans are decided and stored here on the
 * web thread (it receives the bus events); workers report their writes through
 * `resource-changed`, `bans-added`, `bans-lifted` and `bans-reloaded`.
 */
export function createFirewallService(deps: FirewallDeps): FirewallService {
  const { db, clock, bus } = deps;
  const state = new FirewallState(db, clock);
  const bans = new BanStore(db, clock);
  const log = new DecisionLog(db);
  const detector = new IntrusionDetector(state, bans, clock);
  const snapshots = new DecisionSnapshotCache(state, bans, log, clock);
  const warn = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error }, `${what} failed; kept for the next try`);
  // The cursor store keeps a failed write pending and logs it itself.
  const cursors = new CursorStore(db, clock, deps.logger);
  const hosts = new BouncerHosts(db, clock, warn('bouncer host write'));
  // Each step on its own: a locked database postpones that step to the next tick, never the process.
  const prune = () => {
    bans.sweep();
    tryBackgroundWrite(db, () => cursors.forgetRevokedKeys(), warn('cursor pruning'));
    tryBackgroundWrite(db, () => hosts.prune(clock.now()), warn('bouncer host pruning'));
    tryBackgroundWrite(db, () => log.prune(clock.now(), cursors.oldestLiveVersion()), warn('decision log pruning'));
    tryBackgroundWrite(
      db,
      () => pruneBanHistory(db, clock.now(), deps.banHistoryRetentionDays()),
      warn('ban history pruning'),
    );
  };
  const flush = () => {
    tryBackgroundWrite(db, () => cursors.flush(), warn('cursor flush'));
    tryBackgroundWrite(db, () => hosts.flush(), warn('bouncer host flush'));
  };

  /** Imports still being taken in, stopped with the service. */
  const imports = new Set<() => void>();
  const unsubscribe = [
    bus.on('resource-changed', (event) => {
      if (CONFIG_RESOURCES.has(event.resource)) state.reload();
    }),
    bus.on('security-failure', (event) => {
      detector.recordFailure(event.category, event.ip, event.reason, event.credential === 'api-key');
    }),
    bus.on('bans-added', (event) => bans.reloadIp(event.ip)),
    bus.on('bans-reloaded', () => bans.reload()),
    bus.on('bans-imported', (event) => {
      const stop = absorbImportedBans(bans, event, () => imports.delete(stop));
      imports.add(stop);
    }),
    bus.on('bans-lifted', (event) => {
      const ip = normalizeAddress(event.ip) ?? event.ip;
      bans.reloadIp(ip);
      detector.forgetIp(ip);
    }),
  ];
  // Publish now: whatever changed while the server was stopped gets its version before any poll.
  snapshots.get();
  prune();
  const pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
  pruneTimer.unref();
  const flushTimer = setInterval(flush, CURSOR_FLUSH_MS);
  flushTimer.unref();

  const compressor = new SnapshotCompressor(NEW_OPEN);
  const deletedTails = new DeletedTails(log, snapshots.published);
  // Capped and aggregating keys: their own view, deletions and delivery state (issue 4/6).
  const views = new KeyViews(snapshots, state);
  const keyStreams = new KeyStreams(log, snapshots.published, storedAggregates(db));
  const deliveryState = new KeyDeliveryState(db, clock, bus, deps.logger);
  const exportParts = {
    ...{ state, bans, detector, snapshots, compressor, deletedTails, cursors, hosts },
    ...{ views, keyStreams, deliveryState },
  };
  return {
    ...exportParts,
    log,
    bouncerExport: createBouncerExport({ ...exportParts, db, clock, logger: deps.logger }),
    stop() {
      clearInterval(pruneTimer);
      clearInterval(flushTimer);
      // At stop the lock is worth waiting for (busy_timeout): this is the last chance to write.
      tryBackgroundWrite(db, () => cursors.flush(), warn('cursor flush'), 5000);
      tryBackgroundWrite(db, () => hosts.flush(), warn('bouncer host flush'), 5000);
      for (const off of unsubscribe) off();
      for (const stopImport of imports) stopImport();
    },
  };
}
