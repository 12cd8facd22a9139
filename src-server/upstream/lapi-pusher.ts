import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { ActiveBan, BanChange } from '../firewall/bans/index.ts';
import { MANUAL_DURATION_SECONDS, MANUAL_SCENARIO, scopeOf, secondsLeft } from '../firewall/model/index.ts';
import { filterBanValues, type FirewallState } from '../firewall/filters/index.ts';
import { isSqliteBusy, writeWithShortWait } from '../storage/background-write.ts';
import { statement, type Db } from '../storage/database.ts';
import { LapiError, lapiRequest, messageOf } from './lapi-http.ts';
import type { LinkSettings } from './link-settings.ts';
import type { LinkStatusRecorder } from './link-status.ts';
import type { NewPush, PushEntry, PushQueue } from './push-queue.ts';

/** Alerts per POST /v1/alerts: 1,000 bans in a burst go in two requests. */
export const PUSH_BATCH = 500;
/** A burst of bans is gathered this long before the first request. */
const GATHER_MS = 100;
/** Retry delays double from 1 s to 10 s while the LAPI fails (a LAPI back from an outage gets the queue within 10 s). */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 10_000;
/** A quiet link still looks at its queue this often (bans that waited for a backoff). */
const IDLE_CHECK_MS = 5000;
/** A run that met the write lock held by a worker (an import) tries again after 250 ms, doubling to 4 s: the LAPI is not at fault. */
const LOCK_RETRY_MIN_MS = 250;
const LOCK_RETRY_MAX_MS = 4000;
/** A shared filter entry is pushed again this long after its last push, well before its 596 h run out upstream. */
const FILTER_RENEW_MS = 20 * 24 * 3600_000;

interface Token {
  value: string;
  /** Epoch ms after which a new login is needed. */
  renewAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * This PBX as a CrowdSec machine: every ban it shares becomes an alert with its decision, every
 * lift a DELETE of that decision. Entries wait in the durable PushQueue until the LAPI accepted
 * them. An entry handed to a request whose answer was not seen (timeout, cut connection, crash)
 * is looked up in the LAPI's alerts (meta `pbx_queue_id`) before it is sent again, so each is sent
 * once.
 */
export class LapiPusher {
  private token: Token | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private failures = 0;
  private retryAt = 0;
  private lockRetryMs = LOCK_RETRY_MIN_MS;
  /** Bumped by restart(): a run in flight then ends with an immediate new run, not its backoff. */
  private generation = 0;

  private filtersSynced = -1;
  private filtersSyncedAt = 0;

  constructor(
    private readonly deps: {
      db: Db;
      state: FirewallState;
      clock: Clock;
      logger: Logger;
      queue: PushQueue;
      status: LinkStatusRecorder;
      settings: () => LinkSettings;
      /** The longest retry delay (config `linkRetryMaxMs`): tests shorten it to live an outage in seconds. */
      retryMaxMs?: number;
    },
  ) {
    // Entries that waited in memory for the write lock are sent once written.
    deps.queue.onWritten = () => this.schedule(GATHER_MS);
  }

  /** Whether this PBX's bans are shared now. */
  private get active(): boolean {
    const s = this.deps.settings();
    return s.enabled && s.pushEnabled && s.url !== '';
  }

  /** Queues what a change of the ban store means upstream: new or longer bans, and lifts. */
  onBanChange(change: BanChange): void {
    if (change.reset || this.stopped || !this.active) return;
    const { shared } = this.deps.settings();
    const now = this.deps.clock.now();
    const before = new Map<number, ActiveBan>();
    for (const ban of change.removed) before.set(ban.id, ban);
    const after = new Set(change.added.map((ban) => ban.id));
    const entries: NewPush[] = [];
    const sharedBan = (ban: ActiveBan) => ban.category !== 'upstream' && shared.has(ban.category);
    for (const ban of change.removed) {
      // Gone without coming back, while still in force: lifted (expiry is not a change; the LAPI expires it too).
      if (!sharedBan(ban) || after.has(ban.id) || ban.expiresAt <= now) continue;
      entries.push(this.entry('delete', ban));
    }
    for (const ban of change.added) {
      // A re-read of an unchanged ban (after a worker's write) is not news.
      if (!sharedBan(ban) || ban.expiresAt <= now || before.get(ban.id)?.expiresAt === ban.expiresAt) continue;
      entries.push(this.entry('add', ban));
    }
    if (entries.length === 0) return;
    this.deps.queue.enqueue(entries);
    this.schedule(GATHER_MS);
  }

  private entry(kind: 'add' | 'delete', ban: ActiveBan): NewPush {
    return {
      kind,
      value: ban.ip,
      scope: scopeOf(ban.ip),
      scenario: `pbx/${ban.category}`,
      reason: ban.reason,
      expiresAt: ban.expiresAt,
    };
  }

  /** Runs soon (the filters changed). */
  kick(): void {
    this.schedule(GATHER_MS);
  }

  /** Starts sending (after a start or a settings change); the login is renewed. */
  restart(): void {
    this.generation++;
    this.token = undefined;
    this.failures = 0;
    this.retryAt = 0;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = Math.max(this.deps.clock.now() + delayMs, this.retryAt);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), Math.max(0, at - this.deps.clock.now()));
    this.timer.unref();
  }

  /** Sends until the queue is empty or the LAPI fails; then waits (backoff) or idles. */
  async run(): Promise<void> {
    if (this.running || this.stopped) return;
    if (!this.active) return;
    // Entries wait in memory for the write lock: the queue calls again once they are written.
    if (this.deps.queue.waiting > 0) return;
    this.running = true;
    const generation = this.generation;
    let next = IDLE_CHECK_MS;
    try {
      // A login first: wrong credentials show at once, not at the first ban.
      if (!this.token || this.token.renewAt <= this.deps.clock.now()) {
        await this.login();
        this.deps.status.ok('push');
      }
      await this.confirmUnanswered();
      this.syncFilters();
      for (;;) {
        const batch = this.deps.queue.next(PUSH_BATCH);
        if (batch.length === 0) break;
        await this.send(batch);
        if (this.stopped || !this.active) break;
      }
      this.failures = 0;
      this.retryAt = 0;
      this.lockRetryMs = LOCK_RETRY_MIN_MS;
    } catch (error) {
      // Stopped mid-request: the database may be closed; unanswered entries are checked at the next start.
      if (this.stopped) return;
      if (isSqliteBusy(error)) {
        // A worker holds the write lock: this run waited at most 50 ms per write; it goes on soon.
        this.running = false;
        this.schedule(this.lockRetryMs);
        this.lockRetryMs = Math.min(LOCK_RETRY_MAX_MS, this.lockRetryMs * 2);
        return;
      }
      this.failures++;
      next = Math.min(this.deps.retryMaxMs ?? RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (this.failures - 1));
      this.retryAt = this.deps.clock.now() + next;
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.status.fail('push', reason);
      // At debug: the health check `lapi-down` says it once in the terminal, with reminders.
      this.deps.logger.debug({ reason, retryInMs: next }, 'crowdsec link: push failed');
    } finally {
      this.running = false;
      if (!this.stopped) {
        this.deps.status.status.push.dropped = this.deps.queue.dropped;
        this.deps.status.changed();
      }
    }
    if (generation !== this.generation) {
      // The settings changed mid-run: start over with them at once.
      this.retryAt = 0;
      next = 0;
    }
    this.schedule(next);
  }

  /**
   * Filter deny entries, when shared: new ones are queued as `pbx/manual` decisions of 596 h (the
   * export's own duration), removed ones as deletions, and each is pushed again every 20 days while
   * it exists. Checked when the filters change, and hourly for renewals.
   */
  private syncFilters(): void {
    const now = this.deps.clock.now();
    const { state, db } = this.deps;
    if (this.filtersSynced === state.revision && now - this.filtersSyncedAt < 3600_000) return;
    const revision = state.revision;
    const wanted = new Set<string>();
    if (this.deps.settings().shareFilters)
      for (const filter of state.filters) for (const value of filterBanValues(filter)) wanted.add(value);
    const pushed = new Map(
      (
        statement(db, 'SELECT value, pushed_at FROM crowdsec_shared_filters').all() as Array<{
          value: string;
          pushed_at: number;
        }>
      ).map((r) => [r.value, r.pushed_at]),
    );
    const entries: NewPush[] = [];
    const expiresAt = now + MANUAL_DURATION_SECONDS * 1000;
    for (const value of wanted) {
      const at = pushed.get(value);
      if (at === undefined || now - at >= FILTER_RENEW_MS)
        entries.push({
          kind: 'add',
          value,
          scope: scopeOf(value),
          scenario: MANUAL_SCENARIO,
          reason: 'network filter deny entry',
          expiresAt,
        });
    }
    for (const value of pushed.keys()) {
      if (!wanted.has(value))
        entries.push({
          kind: 'delete',
          value,
          scope: scopeOf(value),
          scenario: MANUAL_SCENARIO,
          reason: 'network filter deny entry removed',
          expiresAt: now,
        });
    }
    // Queued and recorded in one transaction, waiting at most 50 ms for the lock (SQLITE_BUSY ends the run: tried again soon).
    if (entries.length)
      writeWithShortWait(db, () =>
        db.transaction(() => {
          this.deps.queue.enqueueInTransaction(entries);
          for (const entry of entries) {
            if (entry.kind === 'add')
              statement(
                db,
                'INSERT INTO crowdsec_shared_filters (value, pushed_at) VALUES (?, ?) ON CONFLICT(value) DO ' +
                  'UPDATE SET pushed_at = excluded.pushed_at',
              ).run(entry.value, now);
            else statement(db, 'DELETE FROM crowdsec_shared_filters WHERE value = ?').run(entry.value);
          }
        })(),
      );
    this.filtersSynced = revision;
    this.filtersSyncedAt = now;
  }

  /** Sends one batch in order: consecutive adds as one POST /v1/alerts, each lift as one DELETE. */
  private async send(batch: PushEntry[]): Promise<void> {
    let adds: PushEntry[] = [];
    for (const entry of batch) {
      if (entry.kind === 'add') {
        adds.push(entry);
        continue;
      }
      if (adds.length) await this.postAlerts(adds);
      adds = [];
      await this.deleteDecision(entry);
    }
    if (adds.length) await this.postAlerts(adds);
  }

  private alertOf(entry: PushEntry, now: number): unknown {
    const site = this.deps.settings().siteName;
    const duration = `${secondsLeft(entry.expiresAt, now)}s`;
    const source =
      entry.scope === 'Ip'
        ? { scope: 'Ip', value: entry.value, ip: entry.value }
        : { scope: 'Range', value: entry.value, range: entry.value };
    return {
      scenario: entry.scenario,
      scenario_hash: '',
      scenario_version: '',
      message: `PBX ${site}: ${entry.scenario} ban of ${entry.value}${entry.reason ? ` (${entry.reason})` : ''}`.slice(
        0,
        500,
      ),
      events_count: 1,
      events: [],
      capacity: 0,
      leakspeed: '0',
      simulated: false,
      remediation: true,
      start_at: iso(now),
      stop_at: iso(now),
      labels: ['pbx', `pbx-site:${site}`],
      meta: [
        { key: 'pbx_site', value: site },
        { key: 'pbx_queue_id', value: String(entry.id) },
      ],
      source,
      decisions: [
        { duration, origin: 'crowdsec', scenario: entry.scenario, scope: entry.scope, type: 'ban', value: entry.value },
      ],
    };
  }

  private async postAlerts(entries: PushEntry[]): Promise<void> {
    const now = this.deps.clock.now();
    const ids = entries.map((e) => e.id);
    const body = entries.map((e) => this.alertOf(e, now));
    this.deps.queue.markSending(ids, now);
    let answer;
    try {
      answer = await this.authorized((token) =>
        lapiRequest({
          method: 'POST',
          baseUrl: this.deps.settings().url,
          path: 'v1/alerts',
          headers: { Authorization: `Bearer ${token}` },
          body,
        }),
      );
    } catch (error) {
      // Refused before reading (credentials, LAPI error): nothing was stored, send again later.
      if (error instanceof LapiError && (error.kind === 'unauthorized' || error.kind === 'http-error'))
        this.deps.queue.markUnsent(ids);
      // Otherwise the answer was not seen: the entries stay unconfirmed and are looked up first.
      throw error;
    }
    if (this.stopped) throw new Error('stopped');
    if (answer.status === 200 || answer.status === 201) {
      this.deps.queue.remove(ids);
      this.deps.status.status.push.sent += ids.length;
      this.deps.status.status.push.lastSentAt = this.deps.clock.now();
      this.deps.status.ok('push');
      return;
    }
    // A 4xx other than 401/403: the LAPI will never take these; drop them, said once in the log.
    this.deps.queue.remove(ids);
    this.deps.queue.dropped += ids.length;
    const reason = `The LAPI refused ${ids.length} alerts with ${answer.status}${messageOf(answer.body)}; they were dropped.`;
    this.deps.logger.error({ status: answer.status }, `crowdsec link: ${reason}`);
    this.deps.status.fail('push', reason);
  }

  private async deleteDecision(entry: PushEntry): Promise<void> {
    const query = new URLSearchParams({ value: entry.value, scenario: entry.scenario });
    this.deps.queue.markSending([entry.id], this.deps.clock.now());
    try {
      const answer = await this.authorized((token) =>
        lapiRequest({
          method: 'DELETE',
          baseUrl: this.deps.settings().url,
          path: `v1/decisions?${query}`,
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
      if (this.stopped) return;
      this.deps.queue.remove([entry.id]);
      if (answer.status === 200) {
        this.deps.status.status.push.deleted++;
        this.deps.status.status.push.lastSentAt = this.deps.clock.now();
        this.deps.status.ok('push');
      } else {
        this.deps.queue.dropped++;
        this.deps.logger.error(
          { status: answer.status, value: entry.value },
          'crowdsec link: the LAPI refused a decision deletion; dropped',
        );
      }
    } catch (error) {
      // A deletion is idempotent: it is simply sent again.
      if (!this.stopped) this.deps.queue.markUnsent([entry.id]);
      throw error;
    }
  }

  /**
   * Entries whose request got no answer: those the LAPI stored (found by meta `pbx_queue_id` in its
   * recent alerts of this site) are done; the others go again.
   */
  private async confirmUnanswered(): Promise<void> {
    const pending = this.deps.queue.unconfirmed();
    if (pending.length === 0) return;
    const adds = pending.filter((e) => e.kind === 'add');
    const resend = pending.filter((e) => e.kind === 'delete').map((e) => e.id);
    if (adds.length) {
      const oldest = adds.reduce((min, e) => Math.min(min, e.sentBatch ?? e.queuedAt), Infinity);
      const since = Math.ceil((this.deps.clock.now() - oldest) / 1000) + 120;
      const answer = await this.authorized((token) =>
        lapiRequest({
          method: 'GET',
          baseUrl: this.deps.settings().url,
          path: `v1/alerts?since=${since}s&limit=100000`,
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
      if (this.stopped) return;
      if (answer.status !== 200)
        throw new LapiError(
          'http-error',
          `The LAPI answered ${answer.status} to the alert lookup${messageOf(answer.body)}.`,
          answer.status,
        );
      const stored = storedQueueIds(answer.body, this.deps.settings().siteName);
      const done = adds.filter((e) => stored.has(e.id)).map((e) => e.id);
      this.deps.queue.remove(done);
      this.deps.status.status.push.sent += done.length;
      resend.push(...adds.filter((e) => !stored.has(e.id)).map((e) => e.id));
      if (done.length)
        this.deps.logger.info(
          { confirmed: done.length, resent: resend.length },
          'crowdsec link: unanswered alerts checked upstream',
        );
    }
    this.deps.queue.markUnsent(resend);
  }

  /** Runs `call` with a valid token: logs in first when needed, and once more after a 401. */
  private async authorized<T>(call: (token: string) => Promise<T>): Promise<T> {
    const first = this.token && this.token.renewAt > this.deps.clock.now() ? this.token.value : await this.login();
    try {
      return await call(first);
    } catch (error) {
      if (!(error instanceof LapiError) || error.kind !== 'unauthorized') throw error;
      this.token = undefined;
      return call(await this.login());
    }
  }

  private async login(): Promise<string> {
    const s = this.deps.settings();
    const answer = await lapiRequest({
      method: 'POST',
      baseUrl: s.url,
      path: 'v1/watchers/login',
      body: { machine_id: s.machineLogin, password: s.machinePassword, scenarios: [] },
    }).catch((error: unknown) => {
      if (error instanceof LapiError && error.kind === 'unauthorized') {
        throw new LapiError(
          'unauthorized',
          `The LAPI refused the machine login "${s.machineLogin}": check the login and password (cscli machines list).`,
          error.status,
        );
      }
      throw error;
    });
    let parsed: { token?: unknown; expire?: unknown };
    try {
      parsed = JSON.parse(answer.body.toString('utf8')) as typeof parsed;
    } catch {
      throw new LapiError('http-error', `The LAPI login answer (${answer.status}) is not JSON.`, answer.status);
    }
    if (answer.status !== 200 || typeof parsed.token !== 'string') {
      throw new LapiError(
        'unauthorized',
        `The LAPI refused the machine login "${s.machineLogin}" (${answer.status}${messageOf(answer.body)}).`,
        answer.status,
      );
    }
    const expire = typeof parsed.expire === 'string' ? Date.parse(parsed.expire) : NaN;
    const now = this.deps.clock.now();
    // Renewed a minute early; a token without a readable expiry is used for 10 minutes.
    this.token = {
      value: parsed.token,
      renewAt: Number.isFinite(expire) ? Math.max(now, expire - 60_000) : now + 600_000,
    };
    return parsed.token;
  }
}

/** The queue ids of this site's alerts in a GET /v1/alerts answer (meta `pbx_site` and `pbx_queue_id`). */
export function storedQueueIds(body: Buffer, site: string): Set<number> {
  const ids = new Set<number>();
  let alerts: unknown;
  try {
    alerts = JSON.parse(body.toString('utf8'));
  } catch {
    return ids;
  }
  if (!Array.isArray(alerts)) return ids;
  for (const alert of alerts as Array<{ meta?: Array<{ key?: unknown; value?: unknown }> }>) {
    const meta = new Map((alert?.meta ?? []).map((m) => [m?.key, m?.value]));
    if (meta.get('pbx_site') !== site) continue;
    const id = Number(meta.get('pbx_queue_id'));
    if (Number.isInteger(id)) ids.add(id);
  }
  return ids;
}
