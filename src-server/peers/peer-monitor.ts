import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import { tryBackgroundWrite, writeWithShortWait } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import { AmiClient, type AmiClientOptions } from './ami-client.ts';
import type { AmiMessage } from './ami-protocol.ts';
import { readAmiSettings, type AmiSettings } from './ami-settings.ts';
import {
  clearState,
  readDetail,
  writeDetail,
  writeLink,
  writeSnapshot,
  type EndpointRow,
  type RegistrationRow,
} from './peer-state-store.ts';
import { DroppedEventLog } from './dropped-events.ts';
import { classifySecurityEvent, securityFailureOf } from './security-events.ts';
import { applyContactStatus, contactsOfEndpoints, type RegisteredSink } from './registered-feed.ts';

export interface PeerMonitorOptions {
  /** Full refresh of endpoint and registration state while connected. */
  refreshIntervalMs?: number;
  /** Client tuning (ping, timeouts, backoff); tests shorten these. */
  client?: Omit<AmiClientOptions, keyof AmiSettings | 'enabled'>;
}

export interface MonitorDeps {
  db: Db;
  bus: ServerBus;
  logger: Logger;
  clock: Clock;
  /** The registered-address index the firewall consults (registered phones are never cut off). */
  registered?: RegisteredSink;
}

// Unsolicited events after which the cached state is out of date.
const STATE_CHANGE_EVENTS = new Set([
  'ContactStatus',
  'DeviceStateChange',
  'PeerStatus',
  'Registry',
  'FullyBooted',
  'Reload',
]);
const DEFAULT_REFRESH_MS = 15_000;
/** An on-demand detail refresh waits at most this long; past it the cached detail is served. */
export const ON_DEMAND_WAIT_MS = 1_000;

const keyOf = (s: AmiSettings) => JSON.stringify([s.enabled, s.host, s.port, s.username, s.secret]);

/**
 * The web thread's AMI service. It owns the AmiClient built from the `ami` settings, keeps the
 * latest endpoint, registration and contact state in SQLite for the worker actions, and turns
 * Asterisk security events into `security-failure` bus events. Nothing here blocks a request.
 */
export class PeerMonitor {
  private client: AmiClient | undefined;
  private settingsKey = '';
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;
  private readonly refreshIntervalMs: number;
  /** Unparseable AMI input, logged at most once a minute. */
  readonly dropped: DroppedEventLog;

  constructor(
    private readonly deps: MonitorDeps,
    private readonly options: PeerMonitorOptions = {},
  ) {
    this.refreshIntervalMs = options.refreshIntervalMs ?? DEFAULT_REFRESH_MS;
    this.dropped = new DroppedEventLog(deps.logger, deps.clock);
  }

  /** Whether the link to Asterisk is up. */
  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** The current client, for diagnostics and tests. */
  get amiClient(): AmiClient | undefined {
    return this.client;
  }

  /** Reads the settings and (re)connects when they changed; disabling or retargeting clears the cache. */
  applySettings(): Promise<void> {
    // Serialised: two quick settings changes must never leave two clients running.
    this.applying = this.applying
      .then(() => this.applyOnce())
      .catch((error: Error) => this.deps.logger.error({ err: error }, 'AMI settings not applied'));
    return this.applying;
  }

  private applying: Promise<void> = Promise.resolve();

  private stopped = false;

  private async applyOnce(): Promise<void> {
    // A change applied while stopping would start a client nobody stops (it would log in forever).
    if (this.stopped) return;
    const settings = readAmiSettings(this.deps.db);
    const key = keyOf(settings);
    if (key === this.settingsKey) return;
    const previousTarget = this.settingsKey ? this.targetOf(this.settingsKey) : undefined;
    this.settingsKey = key;
    await this.stopClient();
    writeLink(this.deps.db, false, null);
    // At start the cache of the last run is kept (served with its age); disabling or a new target forgets it.
    if (!settings.enabled || (previousTarget !== undefined && previousTarget !== this.targetOf(key))) {
      clearState(this.deps.db);
      this.deps.registered?.endAll();
    }
    if (settings.enabled && !this.stopped) this.startClient(settings);
  }

  private targetOf(key: string): string {
    const [, host, port] = JSON.parse(key) as [boolean, string, number];
    return `${host}:${port}`;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.applying;
    await this.stopClient();
    writeLink(this.deps.db, false, null);
  }

  /** Refreshes every state now (single flight: a call during a refresh schedules one more). */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = this.refreshOnce()
      .catch((error: Error) => this.deps.logger.warn({ err: error.message }, 'AMI state refresh failed'))
      .finally(() => {
        this.refreshing = undefined;
        if (this.refreshAgain) {
          this.refreshAgain = false;
          void this.refresh();
        }
      });
    return this.refreshing;
  }

  /**
   * Refreshes one endpoint's contact detail for a request that is about to read it, waiting at
   * most ON_DEMAND_WAIT_MS. Returns at once while Asterisk is down or the detail is under a second old.
   */
  async refreshEndpoint(endpoint: string, maxWaitMs = ON_DEMAND_WAIT_MS): Promise<void> {
    const client = this.client;
    if (!client?.connected) return;
    const stored = readDetail(this.deps.db, endpoint);
    if (stored && this.deps.clock.now() - stored.updatedAt < 1000) return;
    const exists = this.deps.db.prepare('SELECT 1 FROM extensions WHERE number = ?').get(endpoint);
    if (!exists) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.loadDetail(client, endpoint).catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, maxWaitMs))),
    ]);
    clearTimeout(timer);
  }

  private startClient(settings: AmiSettings): void {
    const client = new AmiClient({
      ...this.options.client,
      host: settings.host,
      port: settings.port,
      username: settings.username,
      secret: settings.secret,
    });
    this.client = client;
    client.on('connected', () => {
      this.recordLink(true, null);
      this.deps.logger.info({ host: settings.host, port: settings.port }, 'AMI connected');
      void this.refresh();
      this.scheduleRefresh(this.refreshIntervalMs);
    });
    client.on('disconnected', (reason) => {
      this.recordLink(false, reason);
      clearTimeout(this.refreshTimer);
      // At debug: the health check `ami-down` says it in the terminal once it lasts a minute.
      this.deps.logger.debug({ reason }, 'AMI disconnected');
    });
    client.on('attemptFailed', (reason) => this.recordLink(false, reason));
    client.on('event', (event) => this.onEvent(event));
    client.on('malformed', (text) => this.dropped.note(text));
    client.start();
  }

  private async stopClient(): Promise<void> {
    clearTimeout(this.refreshTimer);
    clearTimeout(this.linkRetry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners();
      await client.stop();
    }
  }

  private linkRetry: NodeJS.Timeout | undefined;

  /**
   * Stores the link state from a client event. These run in the AMI socket's callbacks, where a
   * throw would end the process: a locked database keeps the latest state and tries again a second later.
   */
  private recordLink(connected: boolean, reason: string | null): void {
    clearTimeout(this.linkRetry);
    const written = tryBackgroundWrite(
      this.deps.db,
      () => writeLink(this.deps.db, connected, reason),
      (error) => this.deps.logger.warn({ err: error }, 'AMI link state not stored; kept for the next try'),
    );
    if (!written) {
      this.linkRetry = setTimeout(() => this.recordLink(connected, reason), 1000);
      this.linkRetry.unref();
    }
  }

  private scheduleRefresh(delayMs: number): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      void this.refresh().finally(() => {
        if (this.client?.connected) this.scheduleRefresh(this.refreshIntervalMs);
      });
    }, delayMs);
  }

  private onEvent(event: AmiMessage): void {
    const security = classifySecurityEvent(event);
    if (security?.kind === 'counted') {
      const failure = securityFailureOf(event);
      if (failure) this.deps.bus.emit({ type: 'security-failure', ...failure });
      return;
    }
    if (security?.kind === 'malformed') return this.dropped.note(`${security.event}: ${security.problem}`);
    if (security) return;
    // A registration protects its address at once, without waiting for the refresh.
    if (event.Event === 'ContactStatus' && this.deps.registered) applyContactStatus(this.deps.registered, event);
    // Debounced: a burst of contact changes costs one refresh.
    if (STATE_CHANGE_EVENTS.has(event.Event ?? '')) this.scheduleRefresh(200);
  }

  private async refreshOnce(): Promise<void> {
    const client = this.client;
    if (!client?.connected) return;
    const [endpointList, registrationList] = await Promise.all([
      client.actionList({ Action: 'PJSIPShowEndpoints' }),
      client.actionList({ Action: 'PJSIPShowRegistrationsOutbound' }),
    ]);
    if (client !== this.client) return; // settings changed meanwhile
    const endpoints: EndpointRow[] = endpointList.events
      .filter((e) => e.Event === 'EndpointList' && e.ObjectName)
      .map((e) => ({ endpoint: e.ObjectName!, deviceState: e.DeviceState ?? '', contacts: e.Contacts ?? '' }));
    const registrations: RegistrationRow[] = registrationList.events
      .filter((e) => e.Event === 'OutboundRegistrationDetail' && e.ObjectName)
      .map((e) => ({
        registration: e.ObjectName!,
        status: e.Status ?? '',
        serverUri: e.ServerUri ?? '',
        clientUri: e.ClientUri ?? '',
      }));
    // The web thread waits at most briefly for the lock; a refused write is logged and redone at the next refresh.
    writeWithShortWait(this.deps.db, () =>
      writeSnapshot(this.deps.db, endpoints, registrations, this.deps.clock.now()),
    );
    this.deps.registered?.replaceAll(contactsOfEndpoints(endpoints));

    // Contact details only for known extensions with a contact; the rest have none to show.
    const known = new Set(this.deps.db.prepare('SELECT number FROM extensions').pluck().all() as string[]);
    const now = this.deps.clock.now();
    for (const e of endpoints) {
      if (!known.has(e.endpoint) || client !== this.client) continue;
      if (e.contacts.trim() === '')
        writeWithShortWait(this.deps.db, () => writeDetail(this.deps.db, e.endpoint, null, now));
      else await this.loadDetail(client, e.endpoint).catch(() => undefined);
    }
  }

  private async loadDetail(client: AmiClient, endpoint: string): Promise<void> {
    const { events } = await client.actionList({ Action: 'PJSIPShowEndpoint', Endpoint: endpoint });
    if (client !== this.client) return;
    const contacts = events.filter((e) => e.Event === 'ContactStatusDetail');
    const best = contacts.find((e) => (e.Status ?? '').toLowerCase() === 'reachable') ?? contacts[0] ?? null;
    writeWithShortWait(this.deps.db, () => writeDetail(this.deps.db, endpoint, best, this.deps.clock.now()));
  }
}
