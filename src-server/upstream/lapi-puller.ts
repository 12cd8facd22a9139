import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { ActiveBan, BanStore } from '../firewall/bans/index.ts';
import { CHUNKS } from '../firewall/snapshot/index.ts';
import { decisionId } from '../firewall/model/index.ts';
import type { FirewallState } from '../firewall/filters/index.ts';
import { isSqliteBusy, writeWithShortWait } from '../storage/background-write.ts';
import { statement, type Db } from '../storage/database.ts';
import { LapiError, lapiRequest, messageOf } from './lapi-http.ts';
import type { LinkSettings } from './link-settings.ts';
import type { LinkStatusRecorder } from './link-status.ts';
import type { RegisteredAddresses } from '../firewall/filters/index.ts';
import { canonicalUpstreamValue, ProtectedValues } from './protected-values.ts';
import type { PushQueue } from './push-queue.ts';
import { unpack, type ParsedStream, type StreamParser } from './stream-parser.ts';
import { MAX_UPSTREAM_TEXT, safeUpstreamText } from './upstream-text.ts';

/** Records handled per slice; the web thread yields between slices (a 100k stream never holds it long). */
const SLICE = 1000;
/** After a failed poll the next waits at least this long, doubling to the cap. */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 10_000;
/** Scopes asked for: the ones this PBX enforces, and the common ones it skips and counts. */
const STREAM_QUERY = 'dedup=false&scopes=ip,range,country,as';

/** One pulled decision as held in memory (and in crowdsec_upstream_decisions). */
interface Held {
  value: string;
  scenario: string;
  origin: string;
  expiresAt: number;
}

interface StoredDecision {
  lapi_id: number;
  value: string;
  scope: string;
  scenario: string;
  origin: string;
  expires_at: number;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Pause before a slice tries the write lock again. */
const LOCK_RETRY_MS = 100;
/** Republished decisions join the export this many at a time (a few of its chunks), this far apart (see applyValues). */
const PUBLISH_SLICE = 2_000;
const PUBLISH_PACE_MS = 25;

/**
 * This PBX as a bouncer of the LAPI: polls its decision stream and enforces what it says here,
 * as upstream bans in the ban store (403 from the guard; republished to this PBX's bouncers with
 * their origin when `republish` is on). Its own decisions coming back are skipped (echo), and so
 * are values its whitelist, trusted networks or loopback protect. The pulled decisions are kept in
 * SQLite, so they are enforced from the start, before the LAPI answers again; memory holds them
 * by value for the per-value choice (the longest decision wins).
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
  /** Bumped by restart(): a poll in flight then keeps `startup` and is followed at once by a new one. */
  private generation = 0;
  private readonly held = new Map<number, Held>();
  private readonly byValue = new Map<string, Set<number>>();

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
      /** Brings the export up to date now (its snapshot build), so each paced slice is built on its own. */
      settle?: () => void;
      /** The longest retry delay (config `linkRetryMaxMs`). */
      retryMaxMs?: number;
      /** Addresses with registered phones: a decision covering one is not enforced here. */
      registered?: RegisteredAddresses;
    },
  ) {
    this.protectedValues = new ProtectedValues(deps.state, deps.registered);
    for (const row of deps.db
      .prepare('SELECT lapi_id, value, scope, scenario, origin, expires_at FROM crowdsec_upstream_decisions')
      .iterate() as Iterable<StoredDecision>) {
      // Kept by a version that took the text as it came: reduced the way the door now does.
      this.hold(row.lapi_id, {
        value: row.value,
        scenario: safeUpstreamText(row.scenario),
        origin: safeUpstreamText(row.origin),
        expiresAt: row.expires_at,
      });
    }
  }

  private get active(): boolean {
    const s = this.deps.settings();
    return s.enabled && s.pullEnabled && s.url !== '';
  }

  /** (Re)starts polling with a full (startup) pull; applies the held decisions at once (or clears them when pulling is off). */
  async restart(): Promise<void> {
    this.generation++;
    this.startup = true;
    this.failures = 0;
    await this.applyValues([...this.byValue.keys()], this.active);
    if (this.active) this.schedule(0);
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
    const generation = this.generation;
    const settings = this.deps.settings();
    let next = settings.pullIntervalMs;
    try {
      // The whitelist or trusted networks changed: every held value is judged again.
      if (this.stateRevision !== this.deps.state.revision) {
        this.stateRevision = this.deps.state.revision;
        await this.applyValues([...this.byValue.keys()], true);
      }
      await this.rejudgePhones();
      const path = `v1/decisions/stream?${this.startup ? 'startup=true&' : ''}${STREAM_QUERY}`;
      const answer = await lapiRequest({
        method: 'GET',
        baseUrl: settings.url,
        path,
        headers: { 'X-Api-Key': settings.bouncerKey },
      });
      if (answer.status !== 200)
        throw new LapiError(
          'http-error',
          `The LAPI answered ${answer.status} to the decision stream${messageOf(answer.body)}.`,
          answer.status,
        );
      const receivedAt = this.deps.clock.now();
      let parsed: ParsedStream;
      try {
        parsed = await this.deps.parser.parse(answer.body);
      } catch (error) {
        throw new LapiError(
          'http-error',
          `The LAPI decision stream answer is malformed (${error instanceof Error ? error.message : String(error)}); dropped.`,
        );
      }
      if (this.stopped) return;
      const startup = this.startup;
      await this.ingest(parsed, receivedAt, startup);
      if (generation === this.generation) this.startup = false;
      this.failures = 0;
      this.deps.status.ok('pull');
    } catch (error) {
      // Stopped mid-poll: the database may be closed; the next start pulls everything again.
      if (this.stopped) return;
      this.failures++;
      next = Math.max(next, Math.min(this.deps.retryMaxMs ?? RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (this.failures - 1)));
      const reason = error instanceof Error ? error.message : String(error);
      if (
        !(error instanceof LapiError) ||
        error.kind === 'too-large' ||
        error.kind === 'timeout' ||
        reason.includes('malformed')
      ) {
        this.deps.status.status.pull.droppedAnswers++;
      }
      this.deps.status.fail('pull', reason);
      // At debug: the health check `lapi-down` says it once in the terminal, with reminders.
      this.deps.logger.debug({ reason, retryInMs: next }, 'crowdsec link: pull failed');
    } finally {
      this.running = false;
    }
    this.schedule(generation === this.generation ? next : 0);
  }

  private hold(id: number, decision: Held): void {
    const previous = this.held.get(id);
    if (previous && previous.value !== decision.value) this.byValue.get(previous.value)?.delete(id);
    this.held.set(id, decision);
    let ids = this.byValue.get(decision.value);
    if (!ids) this.byValue.set(decision.value, (ids = new Set()));
    ids.add(id);
  }

  private release(id: number): string | undefined {
    const previous = this.held.get(id);
    if (!previous) return undefined;
    this.held.delete(id);
    const ids = this.byValue.get(previous.value);
    ids?.delete(id);
    if (ids?.size === 0) this.byValue.delete(previous.value);
    return previous.value;
  }

  /** Records what the stream said (memory, and SQLite in slices), then applies every value it touched. */
  private async ingest(parsed: ParsedStream, receivedAt: number, startup: boolean): Promise<void> {
    const { db, status, queue } = this.deps;
    for (const [name, count] of Object.entries(parsed.skipped))
      status.skip(name.startsWith('type:') ? name : `scope:${name}`, count);
    status.skip('invalid', parsed.malformed);
    if (parsed.reduced > 0)
      this.deps.logger.warn(
        { decisions: parsed.reduced, maxChars: MAX_UPSTREAM_TEXT },
        "crowdsec link: upstream scenario or origin text outside the safe set was reduced (each unsafe character is '_', cut to the bound)",
      );
    const own = queue.ownDecisions(receivedAt);
    const touched = new Set<string>();
    const upsert = statement(
      db,
      'INSERT INTO crowdsec_upstream_decisions (lapi_id, value, scope, scenario, origin, ' +
        'expires_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(lapi_id) DO UPDATE SET value = ' +
        'excluded.value, scope = excluded.scope, scenario = excluded.scenario, origin = ' +
        'excluded.origin, expires_at = excluded.expires_at',
    );
    const remove = statement(db, 'DELETE FROM crowdsec_upstream_decisions WHERE lapi_id = ?');
    const kept = startup ? new Set<number>() : undefined;
    const counts = { echo: 0, protected: 0, phones: 0, invalid: 0 };

    let writes: Array<() => void> = [];
    const flush = async () => {
      // Each slice waits at most briefly for the write lock, and tries again after a pause while a
      // worker's long write holds it: the web thread never sits out the connection's busy_timeout.
      for (;;) {
        if (this.stopped) throw new Error('stopped');
        try {
          writeWithShortWait(db, () =>
            db.transaction(() => {
              for (const write of writes) write();
            })(),
          );
          break;
        } catch (error) {
          if (!isSqliteBusy(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
        }
      }
      writes = [];
      await yieldToLoop();
    };
    for (const decision of unpack(parsed.added)) {
      const value = canonicalUpstreamValue(decision.value, decision.scope);
      if (!value) {
        counts.invalid++;
        continue;
      }
      if (own.has(`${decision.scenario} ${value}`)) {
        counts.echo++;
        continue;
      }
      if (this.protectedValues.holdsPhones(value)) counts.phones++;
      else if (this.protectedValues.isProtected(value)) counts.protected++;
      kept?.add(decision.id);
      const held: Held = {
        value,
        scenario: decision.scenario,
        origin: decision.origin,
        expiresAt: receivedAt + decision.durationMs,
      };
      const previous = this.held.get(decision.id);
      if (previous) touched.add(previous.value);
      this.hold(decision.id, held);
      touched.add(value);
      writes.push(() => upsert.run(decision.id, value, decision.scope, held.scenario, held.origin, held.expiresAt));
      if (writes.length >= SLICE) await flush();
    }
    for (const decision of unpack(parsed.deleted)) {
      const value = this.release(decision.id);
      if (value === undefined) continue;
      touched.add(value);
      writes.push(() => remove.run(decision.id));
      if (writes.length >= SLICE) await flush();
    }
    if (kept) {
      // A full answer replaces the record: what it no longer lists ended while this PBX was not looking.
      for (const id of [...this.held.keys()]) {
        if (kept.has(id)) continue;
        touched.add(this.release(id)!);
        writes.push(() => remove.run(id));
        if (writes.length >= SLICE) await flush();
      }
    }
    await flush();
    status.skip('echo', counts.echo);
    status.skip('protected', counts.protected);
    status.skip('registered phones', counts.phones);
    status.skip('invalid', counts.invalid);
    await this.applyValues([...touched], true);
  }

  /** Held values covering registered phones at the last poll. */
  private heldOverPhones = new Set<string>();

  /**
   * Phones register and leave between polls: every held value whose cover changed (a single address
   * registered or past its linger, a range holding one) is judged again. Costs a map lookup per
   * held value.
   */
  private async rejudgePhones(): Promise<void> {
    if (!this.deps.registered) return;
    const now = new Set<string>();
    for (const value of this.byValue.keys()) if (this.protectedValues.holdsPhones(value)) now.add(value);
    const changed = [...now].filter((v) => !this.heldOverPhones.has(v));
    for (const value of this.heldOverPhones) if (!now.has(value)) changed.push(value);
    this.heldOverPhones = now;
    if (changed.length) await this.applyValues(changed, true);
  }

  /**
   * Sets each value's upstream ban in the ban store: its longest decision in force, unless this
   * PBX protects the value; cleared otherwise. In slices, yielding between them.
   */
  private async applyValues(values: string[], enabled: boolean): Promise<void> {
    const { clock, bans } = this.deps;
    const publish = this.deps.settings().republish;
    if (this.published !== undefined && this.published !== publish) {
      // Republishing was switched: every held value moves between the export and the guard-only set.
      values = [...new Set([...values, ...this.byValue.keys()])];
    }
    this.published = publish;
    // Many values: enforced by the guard slice by slice first (cheap), then handed to the export in
    // a few paced slices (each a snapshot change and a decision-log write). A value the export
    // already publishes stays published meanwhile (no deleted-then-new flicker for its bouncers).
    const staged = publish && values.length > SLICE;
    // Staged values by the export chunk they land in (its decision id modulo CHUNKS): the export
    // renders and compresses by chunk, so a slice taken in chunk order re-renders a few chunks, not
    // all of them (in pull order every slice touched every chunk).
    const byChunk: Array<Array<{ value: string; ban: ActiveBan | undefined }>> = staged
      ? Array.from({ length: CHUNKS }, () => [])
      : [];
    for (let i = 0; i < values.length; i += SLICE) {
      const now = clock.now();
      const updates = values.slice(i, i + SLICE).map((value) => {
        let best: [number, Held] | undefined;
        if (enabled && !this.protectedValues.isProtected(value)) {
          for (const id of this.byValue.get(value) ?? []) {
            const held = this.held.get(id)!;
            if (held.expiresAt > now && (!best || held.expiresAt > best[1].expiresAt)) best = [id, held];
          }
        }
        const ban: ActiveBan | undefined = best && {
          id: -best[0],
          category: 'upstream',
          ip: value,
          reason: `${best[1].origin}: ${best[1].scenario}`.slice(0, 200),
          bannedAt: now,
          expiresAt: best[1].expiresAt,
          origin: best[1].origin,
          scenario: best[1].scenario,
        };
        return { value, ban };
      });
      if (staged) {
        for (const u of updates) {
          // A value cleared leaves the chunk of the decision it published.
          const scenario = (u.ban ?? bans.get('upstream', u.value))?.scenario ?? '';
          byChunk[decisionId(u.value, scenario) % CHUNKS]!.push(u);
        }
        bans.setUpstream(
          updates.filter((u) => !bans.isUpstreamPublished(u.value)),
          false,
        );
      } else bans.setUpstream(updates, publish);
      if (i + SLICE < values.length) await yieldToLoop();
    }
    // Then into the export in paced slices, each one snapshot change and one decision-log write.
    const all = byChunk.flat();
    for (let i = 0; i < all.length; i += PUBLISH_SLICE) {
      if (i > 0) await new Promise<void>((resolve) => setTimeout(resolve, PUBLISH_PACE_MS));
      if (this.stopped) return;
      bans.setUpstream(all.slice(i, i + PUBLISH_SLICE), true);
      // Built here, not by the next poll: polls that lag would otherwise build many slices at once.
      this.deps.settle?.();
    }
    this.deps.status.status.pull.decisions = this.held.size;
    this.deps.status.changed();
  }

  /** Drops decisions past their end (the LAPI lists them in `deleted` too; this covers a missed answer). */
  prune(now = this.deps.clock.now()): void {
    const ended = [...this.held].filter(([, held]) => held.expiresAt <= now).map(([id]) => id);
    if (ended.length === 0) return;
    // Short wait for the lock (throws SQLITE_BUSY while a worker holds it; memory is released after the write).
    writeWithShortWait(this.deps.db, () =>
      statement(this.deps.db, 'DELETE FROM crowdsec_upstream_decisions WHERE expires_at <= ?').run(now),
    );
    for (const id of ended) this.release(id);
    this.deps.status.status.pull.decisions = this.held.size;
  }
}
