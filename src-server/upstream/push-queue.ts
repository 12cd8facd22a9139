import type { Clock } from '../clock.ts';
import { statement, type Db } from '../storage/database.ts';

/** At most this many entries wait; see `enforceBound` for what goes first. */
export const PUSH_QUEUE_LIMIT = 100_000;
/** After a lift, this PBX's own decision may still arrive in the stream this long: it is not applied. */
export const ECHO_GRACE_MS = 60_000;

/** A ban or a lift waiting to be sent to the LAPI. */
export interface PushEntry {
  id: number;
  kind: 'add' | 'delete';
  value: string;
  scope: 'Ip' | 'Range';
  scenario: string;
  reason: string;
  expiresAt: number;
  queuedAt: number;
  attempts: number;
  sentBatch: number | null;
}

/** The queue's columns under PushEntry's names, so a row reads back as an entry. */
const ENTRY_COLUMNS =
  'id, kind, value, scope, scenario, reason, expires_at AS expiresAt, queued_at AS queuedAt, attempts, ' +
  'sent_batch AS sentBatch';

export type NewPush = Omit<PushEntry, 'id' | 'queuedAt' | 'attempts' | 'sentBatch'>;

/**
 * The durable push queue (SQLite): bans and lifts wait here until the LAPI accepted them, so a
 * LAPI outage or a restart loses nothing. Bounded at `limit` entries: when full, adds whose ban
 * already ended go first (nothing left to share), then the oldest entries; each is counted as
 * dropped. An add whose ban ends before it is sent is dropped unsent.
 */
export class PushQueue {
  /** Entries dropped since start (queue full or ended unsent). */
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limit = PUSH_QUEUE_LIMIT,
  ) {}

  /** Queues entries in one transaction and records this PBX's own decisions (echo check). */
  enqueue(entries: readonly NewPush[]): void {
    if (entries.length === 0) return;
    const now = this.clock.now();
    const insert = this.db.prepare(
      'INSERT INTO crowdsec_push_queue (kind, value, scope, scenario, reason, expires_at, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const pushed = this.db.prepare(
      'INSERT INTO crowdsec_pushed (value, scenario, until) VALUES (?, ?, ?) ON CONFLICT(value, ' +
        'scenario) DO UPDATE SET until = MAX(until, excluded.until)',
    );
    const lifted = this.db.prepare('UPDATE crowdsec_pushed SET until = ? WHERE value = ? AND scenario = ?');
    // An add never sent needs no delete of its own: it is simply not sent.
    const cancelUnsent = this.db.prepare(
      "DELETE FROM crowdsec_push_queue WHERE kind = 'add' AND value = ? AND scenario = ? AND sent_batch IS NULL",
    );
    this.db.transaction(() => {
      for (const entry of entries) {
        if (entry.kind === 'add') pushed.run(entry.value, entry.scenario, entry.expiresAt);
        else {
          cancelUnsent.run(entry.value, entry.scenario);
          lifted.run(now + ECHO_GRACE_MS, entry.value, entry.scenario);
        }
        insert.run(entry.kind, entry.value, entry.scope, entry.scenario, entry.reason, entry.expiresAt, now);
      }
      this.enforceBound(now);
    })();
  }

  /** The (value, scenario) pairs this PBX pushed and may still see come back, as `scenario value` strings (one query per stream answer). */
  ownDecisions(now = this.clock.now()): Set<string> {
    const rows = statement(this.db, 'SELECT value, scenario FROM crowdsec_pushed WHERE until > ?').all(now) as Array<{
      value: string;
      scenario: string;
    }>;
    return new Set(rows.map((row) => `${row.scenario} ${row.value}`));
  }

  /** Whether (value, scenario) is a decision this PBX pushed and may still see come back. */
  isOwn(value: string, scenario: string, now = this.clock.now()): boolean {
    const row = statement(this.db, 'SELECT until FROM crowdsec_pushed WHERE value = ? AND scenario = ?').get(
      value,
      scenario,
    ) as { until: number } | undefined;
    return row !== undefined && row.until > now;
  }

  /** The next entries to send, oldest first; adds whose ban has ended are dropped on the way. */
  next(max: number): PushEntry[] {
    const now = this.clock.now();
    const ended = this.db
      .prepare("DELETE FROM crowdsec_push_queue WHERE kind = 'add' AND expires_at <= ? AND sent_batch IS NULL")
      .run(now).changes;
    this.dropped += ended;
    return this.db
      .prepare(`SELECT ${ENTRY_COLUMNS} FROM crowdsec_push_queue ORDER BY id LIMIT ?`)
      .all(max) as PushEntry[];
  }

  /** Entries handed to a request whose answer was not seen (a crash or a cut answer): checked upstream before any resend. */
  unconfirmed(): PushEntry[] {
    return this.db
      .prepare(`SELECT ${ENTRY_COLUMNS} FROM crowdsec_push_queue WHERE sent_batch IS NOT NULL ORDER BY id`)
      .all() as PushEntry[];
  }

  /** Marks entries as handed to the request `batch` (epoch ms), before it is sent. */
  markSending(ids: readonly number[], batch: number): void {
    const mark = this.db.prepare('UPDATE crowdsec_push_queue SET sent_batch = ?, attempts = attempts + 1 WHERE id = ?');
    this.db.transaction(() => {
      for (const id of ids) mark.run(batch, id);
    })();
  }

  /** The LAPI did not take them (refused before reading, or checked upstream): they go again. */
  markUnsent(ids: readonly number[]): void {
    const mark = this.db.prepare('UPDATE crowdsec_push_queue SET sent_batch = NULL WHERE id = ?');
    this.db.transaction(() => {
      for (const id of ids) mark.run(id);
    })();
  }

  /** Done with them: the LAPI accepted them (or refused them for good). */
  remove(ids: readonly number[]): void {
    const remove = this.db.prepare('DELETE FROM crowdsec_push_queue WHERE id = ?');
    this.db.transaction(() => {
      for (const id of ids) remove.run(id);
    })();
  }

  get length(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM crowdsec_push_queue').get() as { n: number }).n;
  }

  /** Forgets pushed decisions long past their end (the echo check needs only the live ones). */
  prune(now = this.clock.now()): void {
    this.db.prepare('DELETE FROM crowdsec_pushed WHERE until < ?').run(now - ECHO_GRACE_MS);
  }

  private enforceBound(now: number): void {
    let over = this.length - this.limit;
    if (over <= 0) return;
    const ended = this.db
      .prepare(
        'DELETE FROM crowdsec_push_queue WHERE id IN (SELECT id FROM crowdsec_push_queue WHERE kind ' +
          "= 'add' AND expires_at <= ? AND sent_batch IS NULL ORDER BY id LIMIT ?)",
      )
      .run(now, over).changes;
    over -= ended;
    const oldest =
      over > 0
        ? this.db
            .prepare(
              'DELETE FROM crowdsec_push_queue WHERE id IN (SELECT id FROM crowdsec_push_queue WHERE ' +
                'sent_batch IS NULL ORDER BY id LIMIT ?)',
            )
            .run(over).changes
        : 0;
    this.dropped += ended + oldest;
  }
}
