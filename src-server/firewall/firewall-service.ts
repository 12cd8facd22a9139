import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import { normalizeAddress } from './model/index.ts';
import { absorbImportedBans } from './transfer/index.ts';
import { BanStore, pruneBanHistory } from './bans/index.ts';
import {
  type BouncerExport,
  BouncerHosts,
  createBouncerExport,
  CursorStore,
  KeyDeliveryState,
  keyResyncs,
  KeyStreams,
  storedAggregates,
} from './export/index.ts';
import { FeedCursors, KeyViews } from './feeds/index.ts';
import { DecisionLog, DecisionSnapshotCache, DeletedTails, NEW_OPEN, SnapshotCompressor } from './snapshot/index.ts';
import { FirewallState, RegisteredAddresses, writeContacts, type RegisteredContact } from './filters/index.ts';
import {
  AccountFlags,
  clearAccountFlags,
  flagText,
  IntrusionDetector,
  NeighbourhoodEscalation,
  writeAccountFlag,
  type ProtectedCheck,
} from './intrusion/index.ts';

/** Resources whose writes change the firewall configuration the web thread caches. */
const CONFIG_RESOURCES = new Set(['firewall', 'network-filters', 'fail2ban']);
const PRUNE_EVERY_MS = 60_000;
/** Flags on accounts that stopped failing are cleared this often. */
const FLAG_EXPIRY_MS = 5000;
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
  /** The protected addresses (registered phones) in a range: never inside an escalated ban. None when left out. */
  isProtected?: ProtectedCheck;
}

/** The web thread's firewall: bans, filters, the decision snapshot and log, cursors and bouncer hosts. */
export interface FirewallService {
  state: FirewallState;
  bans: BanStore;
  detector: IntrusionDetector;
  /** The addresses with registered phones (fed by the AMI monitor): never cut off. */
  registered: RegisteredAddresses;
  /** Accounts flagged for failing from such an address. */
  flags: AccountFlags;
  snapshots: DecisionSnapshotCache;
  log: DecisionLog;
  compressor: SnapshotCompressor;
  deletedTails: DeletedTails;
  cursors: CursorStore;
  hosts: BouncerHosts;
  /** What each key's MikroTik router was last sent (its delta cursors). */
  feedCursors: FeedCursors;
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
  const warnPhones = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error }, `${what} failed; the next change writes again`);
  // A write refused by a locked database is kept and written with the next change.
  let unwritten: RegisteredContact[] = [];
  const registered = new RegisteredAddresses(
    () => state.settings,
    clock,
    (changed) => {
      const rows = [...unwritten, ...changed];
      unwritten = tryBackgroundWrite(db, () => writeContacts(db, rows), warnPhones('registered contact write'))
        ? []
        : rows;
    },
  );
  registered.loadFrom(db);
  // The counts behind stored flags lived in memory: a restart starts counting again.
  tryBackgroundWrite(db, () => clearAccountFlags(db), warnPhones('account flag reset'));
  const flags = new AccountFlags(state, registered, clock, (flag) => {
    tryBackgroundWrite(db, () => writeAccountFlag(db, flag), warnPhones('account flag write'));
    const fields = { account: flag.account, address: flag.address, failures: flag.failures };
    if (flag.state === 'flagged') deps.logger.warn(fields, `${flagText(flag)}: flagged, the address is not banned`);
    else deps.logger.info(fields, `Account ${flag.account} at ${flag.address}: flag cleared`);
    bus.emit({ type: 'account-flagged', flag });
  });
  // Never widened over a registered phone's address (issue 3/6): the addresses in the range that host one.
  const protectedIn: ProtectedCheck = (range) => {
    const found = registered.protectedPhones(range);
    return found.size ? [...found.keys()] : null;
  };
  const escalation = new NeighbourhoodEscalation(state, bans, clock, deps.isProtected ?? protectedIn, deps.logger);
  const detector = new IntrusionDetector(state, bans, clock, Math.random, { registered, flags }, escalation);
  const snapshots = new DecisionSnapshotCache(state, bans, log, clock);
  const warn = (what: string) => (error: unknown) =>
    deps.logger.warn({ err: error }, `${what} failed; kept for the next try`);
  // The cursor store keeps a failed write pending and logs it itself.
  const cursors = new CursorStore(db, clock, deps.logger);
  const hosts = new BouncerHosts(db, clock, warn('bouncer host write'));
  // Each step on its own: a locked database postpones that step to the next tick, never the process.
  const prune = () => {
    bans.sweep();
    escalation.sweep();
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

  const feedCursors = new FeedCursors();
  const resyncs = keyResyncs(db, feedCursors);
  /** Imports still being taken in, stopped with the service. */
  const imports = new Set<() => void>();
  const unsubscribe = [
    bus.on('resource-changed', (event) => {
      if (CONFIG_RESOURCES.has(event.resource)) state.reload();
      if (event.resource === 'api-keys') resyncs.apply();
    }),
    bus.on('security-failure', (event) => {
      detector.recordFailure(event.category, event.ip, event.reason, event.credential === 'api-key', event.account);
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
  const flagTimer = setInterval(() => flags.expire(), FLAG_EXPIRY_MS);
  flagTimer.unref();

  const compressor = new SnapshotCompressor(NEW_OPEN);
  const deletedTails = new DeletedTails(log, snapshots.published);
  // Capped and aggregating keys: their own view, deletions and delivery state (issue 4/6).
  const views = new KeyViews(snapshots, state);
  const keyStreams = new KeyStreams(log, snapshots.published, storedAggregates(db));
  const deliveryState = new KeyDeliveryState(db, clock, bus, deps.logger);
  const exportParts = {
    ...{ state, bans, detector, snapshots, compressor, deletedTails, cursors, hosts, feedCursors },
    ...{ views, keyStreams, deliveryState },
  };
  return {
    ...exportParts,
    log,
    registered,
    flags,
    bouncerExport: createBouncerExport({ ...exportParts, db, clock, logger: deps.logger }),
    stop() {
      clearInterval(pruneTimer);
      clearInterval(flushTimer);
      clearInterval(flagTimer);
      // At stop the lock is worth waiting for (busy_timeout): this is the last chance to write.
      tryBackgroundWrite(db, () => cursors.flush(), warn('cursor flush'), 5000);
      tryBackgroundWrite(db, () => hosts.flush(), warn('bouncer host flush'), 5000);
      for (const off of unsubscribe) off();
      for (const stopImport of imports) stopImport();
    },
  };
}
