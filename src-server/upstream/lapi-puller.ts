import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { ActiveBan, BanStore } from '../firewall/ban-store.ts';
import type { FirewallState } from '../firewall/firewall-state.ts';
import type { Db } from '../storage/database.ts';
import { LapiError, lapiRequest, messageOf } from './lapi-http.ts';
import type { LinkSettings } from './link-settings.ts';
import type { LinkStatusRecorder } from './link-status.ts';
import { canonicalUpstreamValue, ProtectedValues } from './protected-values.ts';
import type { PushQueue } from './push-queue.ts';
import { unpack, type ParsedStream, type StreamParser } from './stream-parser.ts';

/** Records applied per slice; the web thread yields between slices (a 100k stream never holds it long). */
const SLICE = 2000;
/** After a failed poll the next waits at least this long, doubling to the cap. */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 10_000;
/** Scopes asked for: the ones this PBX enforces, and the common ones it skips and counts. */
const STREAM_QUERY = 'dedup=false&scopes=ip,range,country,as';

interface StoredDecision {
  lapi_id: number;
  value: string;
  scenario: string;
  origin: string;
  expires_at: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * This PBX as a bouncer of the LAPI: polls its decision stream and enforces what it says here,
 * as upstream bans in the ban store (403 from the guard; republished to this PBX's bouncers with
 * their origin when `republish` is on). Its own decisions coming back are skipped (echo), and so
 * are values its whitelist, trusted networks or loopback protect. The pulled decisions are kept in
 * SQLite, so they are enforced from the start, before the LAPI answers again.
 */
export class LapiPuller {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private startup = true;
  private failures = 0;
  private stateRevision = -1;
  private published: boolean | undefined;
  private readonly protectedValues: ProtectedValues;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      logger: Logger;
      bans: BanStore;
      state: FirewallState;
      queue: PushQueue;
      parser: StreamParser;
      status: LinkStatusRecorder;
      settings: () => LinkSettings;
    },
  ) {
    this.protectedValues = new ProtectedValues(deps.state);
  }

  private get active(): boolean {
    const s = this.deps.settings();
    return s.enabled && s.pullEnabled && s.url !== '';
  }

  /** (Re)starts polling with a full (startup) pull; applies the stored decisions at once. */
  async restart(): Promise<void> {
    this.startup = true;
    this.failures = 0;
    if (!this.active) {
      await this.applyValues(this.allValues(), false);
      return;
    }
    await this.applyValues(this.allValues(), true);
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delayMs);
    this.timer.unref();
  }

  /** One poll of the stream; never throws (a failure is logged, shown, and retried later). */
  async poll(): Promise<void> {
    if (this.running || this.stopped || !this.active) return;
    this.running = true;
    const settings = this.deps.settings();
    let next = settings.pullIntervalMs;
    try {
      // The whitelist or trusted networks changed: every held value is judged again.
      if (this.stateRevision !== this.deps.state.revision) {
        this.stateRevision = this.deps.state.revision;
        await this.applyValues(this.allValues(), true);
      }
      const path = `v1/decisions/stream?${this.startup ? 'startup=true&' : ''}${STREAM_QUERY}`;
      const answer = await lapiRequest({ method: 'GET', baseUrl: settings.url, path, headers: { 'X-Api-Key': settings.bouncerKey } });
      if (answer.status !== 200) throw new LapiError('http-error', `The LAPI answered ${answer.status} to the decision stream${messageOf(answer.body)}.`, answer.status);
      const receivedAt = this.deps.clock.now();
      let parsed: ParsedStream;
      try {
        parsed = await this.deps.parser.parse(answer.body);
      } catch (error) {
        throw new LapiError('http-error', `The LAPI decision stream answer is malformed (${error instanceof Error ? error.message : String(error)}); dropped.`);
      }
      if (this.stopped) return;
      await this.ingest(parsed, receivedAt, this.startup);
      this.startup = false;
      this.failures = 0;
      this.deps.status.ok('pull');
    } catch (error) {
      // Stopped mid-poll: the database may be closed; the next start pulls everything again.
      if (this.stopped) return;
      this.failures++;
      next = Math.max(next, Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (this.failures - 1)));
      const reason = error instanceof Error ? error.message : String(error);
      if (!(error instanceof LapiError) || error.kind === 'too-large' || error.kind === 'timeout' || reason.includes('malformed')) {
        this.deps.status.status.pull.droppedAnswers++;
      }
      this.deps.status.fail('pull', reason);
      this.deps.logger.warn({ reason, retryInMs: next }, 'crowdsec link: pull failed');
    } finally {
      this.running = false;
    }
    this.schedule(next);
  }

  /** Stores what the stream said, then applies every value it touched. */
  private async ingest(parsed: ParsedStream, receivedAt: number, startup: boolean): Promise<void> {
    const { db, status, queue } = this.deps;
    for (const [name, count] of Object.entries(parsed.skipped)) status.skip(name.startsWith('type:') ? name : `scope:${name}`, count);
    status.skip('invalid', parsed.malformed);
    const touched = new Set<string>();
    const upsert = db.prepare(
      'INSERT INTO crowdsec_upstream_decisions (lapi_id, value, scope, scenario, origin, expires_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(lapi_id) DO UPDATE SET value = excluded.value, scope = excluded.scope, scenario = excluded.scenario, origin = excluded.origin, expires_at = excluded.expires_at',
    );
    const byId = db.prepare('SELECT value FROM crowdsec_upstream_decisions WHERE lapi_id = ?');
    const remove = db.prepare('DELETE FROM crowdsec_upstream_decisions WHERE lapi_id = ?');
    const kept = startup ? new Set<number>() : undefined;

    let slice: Array<() => void> = [];
    const flush = async () => {
      if (this.stopped) throw new Error('stopped');
      db.transaction(() => {
        for (const step of slice) step();
      })();
      slice = [];
      await yieldToLoop();
    };
    for (const decision of unpack(parsed.added)) {
      const value = canonicalUpstreamValue(decision.value, decision.scope);
      if (!value) {
        status.skip('invalid');
        continue;
      }
      if (queue.isOwn(value, decision.scenario, receivedAt)) {
        status.skip('echo');
        continue;
      }
      if (this.protectedValues.isProtected(value)) status.skip('protected');
      kept?.add(decision.id);
      slice.push(() => {
        upsert.run(decision.id, value, decision.scope, decision.scenario, decision.origin, receivedAt + decision.durationMs);
        touched.add(value);
      });
      if (slice.length >= SLICE) await flush();
    }
    for (const decision of unpack(parsed.deleted)) {
      slice.push(() => {
        const row = byId.get(decision.id) as { value: string } | undefined;
        if (!row) return;
        remove.run(decision.id);
        touched.add(row.value);
      });
      if (slice.length >= SLICE) await flush();
    }
    await flush();
    if (kept) {
      // A full answer replaces the record: what it no longer lists ended while this PBX was not looking.
      const gone = (db.prepare('SELECT lapi_id, value FROM crowdsec_upstream_decisions').all() as StoredDecision[]).filter((row) => !kept.has(row.lapi_id));
      for (let i = 0; i < gone.length; i += SLICE) {
        db.transaction(() => {
          for (const row of gone.slice(i, i + SLICE)) {
            remove.run(row.lapi_id);
            touched.add(row.value);
          }
        })();
        await yieldToLoop();
      }
    }
    db.prepare('DELETE FROM crowdsec_upstream_decisions WHERE expires_at <= ?').run(this.deps.clock.now());
    await this.applyValues([...touched], true);
  }

  private allValues(): string[] {
    const values = new Set<string>();
    for (const row of this.deps.db.prepare('SELECT DISTINCT value FROM crowdsec_upstream_decisions').all() as Array<{ value: string }>) values.add(row.value);
    return [...values];
  }

  /**
   * Sets each value's upstream ban in the ban store: its longest decision in force, unless this
   * PBX protects the value; cleared otherwise. In slices, yielding between them.
   */
  private async applyValues(values: string[], enabled: boolean): Promise<void> {
    const { db, clock, bans } = this.deps;
    const publish = this.deps.settings().republish;
    if (this.published !== undefined && this.published !== publish) {
      // Republishing was switched: every held value moves between the export and the guard-only set.
      values = [...new Set([...values, ...this.allValues()])];
    }
    this.published = publish;
    const longest = db.prepare('SELECT lapi_id, value, scenario, origin, expires_at FROM crowdsec_upstream_decisions WHERE value = ? AND expires_at > ? ORDER BY expires_at DESC LIMIT 1');
    for (let i = 0; i < values.length; i += SLICE) {
      const now = clock.now();
      const updates = values.slice(i, i + SLICE).map((value) => {
        const row = enabled && !this.protectedValues.isProtected(value) ? (longest.get(value, now) as StoredDecision | undefined) : undefined;
        const ban: ActiveBan | undefined = row && {
          id: -row.lapi_id,
          category: 'upstream',
          ip: value,
          reason: `${row.origin}: ${row.scenario}`.slice(0, 200),
          bannedAt: now,
          expiresAt: row.expires_at,
          origin: row.origin,
          scenario: row.scenario,
        };
        return { value, ban };
      });
      bans.setUpstream(updates, publish);
      if (i + SLICE < values.length) await yieldToLoop();
    }
    this.deps.status.status.pull.decisions = (db.prepare('SELECT COUNT(*) AS n FROM crowdsec_upstream_decisions').get() as { n: number }).n;
    this.deps.status.changed();
  }
}
