import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import type { BanStore } from '../firewall/bans/index.ts';
import type { FirewallState, RegisteredAddresses } from '../firewall/filters/index.ts';
import { isSqliteBusy } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import { CROWDSEC_LINK_SETTING_KEY } from '../storage/migrations/070-crowdsec-link.ts';
import { LapiPuller } from './lapi-puller.ts';
import { LapiPusher } from './lapi-pusher.ts';
import { readLinkSettings, type LinkSettings } from './link-settings.ts';
import { LinkStatusRecorder } from './link-status.ts';
import { PushQueue } from './push-queue.ts';
import { StreamParser } from './stream-parser.ts';

/** What the link needs of the running server. */
export interface CrowdsecLinkDeps {
  db: Db;
  clock: Clock;
  bus: ServerBus;
  logger: Logger;
  bans: BanStore;
  state: FirewallState;
  /** Brings the bouncer export up to date (a snapshot build); the puller calls it between paced slices. */
  settle?: () => void;
  /** The longest retry delay while the LAPI fails (config `linkRetryMaxMs`, 10 s by default). */
  retryMaxMs?: number;
  /** Addresses with registered phones: pulled decisions covering one are not enforced. */
  registered?: RegisteredAddresses;
}

/** The web thread's link to an upstream CrowdSec LAPI (`services.crowdsecLink`). */
export interface CrowdsecLink {
  readonly queue: PushQueue;
  readonly pusher: LapiPusher;
  readonly puller: LapiPuller;
  readonly status: LinkStatusRecorder;
  /** Current settings (secrets in clear). */
  settings(): LinkSettings;
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 60_000;
const FILTER_RESOURCES = new Set(['firewall', 'network-filters']);

/**
 * Builds and starts the link: pushes shared bans as they happen (ban store `onChange`), polls the
 * LAPI stream, and follows the `crowdsec-link` settings live. Nothing it does blocks a request: a
 * LAPI that is down, slow or wrong only shows in link:getStatus and the log.
 */
export function startCrowdsecLink(deps: CrowdsecLinkDeps): CrowdsecLink {
  const { db, clock, bus, logger, bans, state, settle, retryMaxMs, registered } = deps;
  let settings = readLinkSettings(db);
  const current = () => settings;
  const status = new LinkStatusRecorder(db, clock);
  const queue = new PushQueue(db, clock);
  const parser = new StreamParser();
  const pusher = new LapiPusher({ db, state, clock, logger, queue, status, settings: current, retryMaxMs });
  const puller = new LapiPuller({
    db,
    clock,
    logger,
    bans,
    state,
    queue,
    parser,
    status,
    settings: current,
    settle,
    retryMaxMs,
    registered,
  });

  const describe = () => {
    const s = status.status;
    s.enabled = settings.enabled;
    s.url = settings.url;
    s.push.enabled = settings.enabled && settings.pushEnabled;
    s.pull.enabled = settings.enabled && settings.pullEnabled;
    for (const direction of [s.push, s.pull]) {
      if (!direction.enabled) direction.state = 'off';
      else if (direction.state === 'off') direction.state = 'waiting';
    }
    status.flush();
  };
  const apply = () => {
    settings = readLinkSettings(db);
    describe();
    pusher.restart();
    void puller.restart();
  };

  bans.onChange((change) => pusher.onBanChange(change));
  const off = bus.on('resource-changed', (event) => {
    // The resource is named after its settings key, like `ami`.
    if (event.resource === CROWDSEC_LINK_SETTING_KEY) apply();
    // Filter deny entries may be shared: the pusher compares them at its next run.
    else if (FILTER_RESOURCES.has(event.resource)) pusher.kick();
  });
  const pruneTimer = setInterval(() => {
    try {
      queue.prune();
      puller.prune();
    } catch (error) {
      // A worker holds the write lock (each prune waited at most 50 ms): pruned next time.
      if (!isSqliteBusy(error)) throw error;
    }
  }, PRUNE_EVERY_MS);
  pruneTimer.unref();
  apply();

  return {
    queue,
    pusher,
    puller,
    status,
    settings: current,
    async stop() {
      off();
      clearInterval(pruneTimer);
      pusher.stop();
      queue.close();
      puller.stop();
      status.flush();
      await parser.close();
    },
  };
}
