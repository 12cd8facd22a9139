import type { Clock } from '../clock.ts';
import { isSqliteBusy, writeWithShortWait } from '../storage/background-write.ts';
import { statement, type Db } from '../storage/database.ts';

/** At most this many entries wait; see `enforceBound` for what goes first. */
export const PUSH_QUEUE_LIMIT = 100_000;
/** After a lift, this PBX's own decision may still arrive in the stream this long: it is not applied. */
export const ECHO_GRACE_MS = 60_000;
/** While another connection holds the write lock, entries still in memory are tried again after 100 ms, doubling to 1 s. */
const WRITE_RETRY_MIN_MS = 100;
const WRITE_RETRY_MAX_MS = 1000;
/** A retry waits this long for the lock (the first try waits BACKGROUND_BUSY_WAIT_MS): a held lock costs the web thread little. */
const RETRY_WAIT_MS = 20;

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

/** An entry not written yet, with when it was queued. */
type Unwritten = NewPush & { at: number };

/**
 * The durable push queue (SQLite): bans and lifts wait here until the LAPI accepted them, so a
 * LAPI outage or a restart loses nothing written. `enqueue` runs on the web thread: it waits at
 * most 50 ms for the write lock, and while a worker holds it (an import) the entries wait in memory
 * and are tried again after 100 ms, doubling to 1 s, until the lock is free; only entries written are sent. Bounded at
 * `limit` entries (in SQLite, and apart in memory): when full, adds whose ban already ended go
 * first (nothing left to share), then the oldest entries; each is counted as dropped. An add whose
 * ban ends before it is sent is dropped unsent.
 */
export class PushQueue {
  /** Entries dropped since start (queue full or ended unsent). */
  dropped = 0;
  /** Called after entries that waited in memory were written (the pusher sends them). */
  onWritten: () => void = () => {};
  private unwritten: Unwritten[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelay = WRITE_RETRY_MIN_MS;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limit = PUSH_QUEUE_LIMIT,
  ) {}

  /**
   * Queues entries and records this PBX's own decisions (echo check): written at once when the
   * write lock is free within 50 ms, otherwise kept in memory and written by a retry timer.
   * Never waits longer, never throws for a held lock.
   */
  enqueue(entries: readonly NewPush[]): void {
    if (entries.length === 0 || this.closed) return;
    const at = this.clock.now();
    for (const entry of entries) this.unwritten.push({ ...entry, at });
    this.boundUnwritten(at);
    if (!this.retryTimer) this.writeUnwritten();
  }

  /** How many entries wait in memory for the write lock. */
  get waiting(): number {
    return this.unwritten.length;
  }

  /**
   * Writes the entries waiting in memory (short wait for the lock); on a held lock, tries again on
   * a timer (100 ms doubling to 1 s). Returns whether nothing waits any more.
   */
  writeUnwritten(waitMs?: number): boolean {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.unwritten.length === 0) return true;
    const batch = this.unwritten;
    try {
      writeWithShortWait(this.db, () => this.db.transaction(() => this.write(batch))(), waitMs);
    } catch (error) {
      // Anything else is a closing database (stop): nothing more can be written.
      if (!isSqliteBusy(error) || this.closed) return false;
      this.retryTimer = setTimeout(() => {
        if (this.writeUnwritten(RETRY_WAIT_MS)) this.onWritten();
      }, this.retryDelay);
      this.retryTimer.unref();
      this.retryDelay = Math.min(WRITE_RETRY_MAX_MS, this.retryDelay * 2);
      return false;
    }
    this.unwritten = [];
    this.retryDelay = WRITE_RETRY_MIN_MS;
    return true;
  }

  /** At stop: the last chance to write what waits in memory, worth the connection's full busy_timeout. */
  close(): void {
    this.writeUnwritten(5000);
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /**
   * Writes entries now, inside the caller's transaction (the filter sync records what it queued
   * in the same one, and rolls both back together). Entries waiting in memory stay there: they are
   * forgotten only once their own write committed.
   */
  enqueueInTransaction(entries: readonly NewPush[]): void {
    const at = this.clock.now();
    this.write(entries.map((entry) => ({ ...entry, at })));
  }

  /** The memory bound: adds already ended go first, then the oldest (counted as dropped). */
  private boundUnwritten(now: number): void {
    const before = this.unwritten.length;
    let over = before - this.limit;
    if (over <= 0) return;
    this.unwritten = this.unwritten.filter((e) => {
      if (over <= 0 || e.kind !== 'add' || e.expiresAt > now) return true;
      over--;
      return false;
    });
    if (over > 0) this.unwritten = this.unwritten.slice(over);
    this.dropped += before - this.unwritten.length;
  }

  private write(entries: readonly Unwritten[]): void {
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
    for (const entry of entries) {
      if (entry.kind === 'add') pushed.run(entry.value, entry.scenario, entry.expiresAt);
      else {
        cancelUnsent.run(entry.value, entry.scenario);
        lifted.run(entry.at + ECHO_GRACE_MS, entry.value, entry.scenario);
      }
      insert.run(entry.kind, entry.value, entry.scope, entry.scenario, entry.reason, entry.expiresAt, entry.at);
    }
    this.enforceBound(now);
  }

  /** The (value, scenario) pairs this PBX pushed and may still see come back, as `scenario value` strings (one query per stream answer). */
  ownDecisions(now = this.clock.now()): Set<string> {
    const rows = statement(this.db, 'SELECT value, scenario FROM crowdsec_pushed WHERE until > ?').all(now) as Array<{
      value: string;
      scenario: string;
    }>;
    const own = new Set(rows.map((row) => `${row.scenario} ${row.value}`));
    for (const entry of this.unwritten) if (this.ownUnwritten(entry, now)) own.add(`${entry.scenario} ${entry.value}`);
    return own;
  }

  /** An entry still in memory is this PBX's own decision: a ban in force, or a lift within the echo grace. */
  private ownUnwritten(entry: Unwritten, now: number): boolean {
    return entry.kind === 'add' ? entry.expiresAt > now : entry.at + ECHO_GRACE_MS > now;
  }

  /** Whether (value, scenario) is a decision this PBX pushed and may still see come back. */
  isOwn(value: string, scenario: string, now = this.clock.now()): boolean {
    const row = statement(this.db, 'SELECT until FROM crowdsec_pushed WHERE value = ? AND scenario = ?').get(
      value,
      scenario,
    ) as { until: number } | undefined;
    if (row !== undefined && row.until > now) return true;
    return this.unwritten.some((e) => e.value === value && e.scenario === scenario && this.ownUnwritten(e, now));
  }

  /** The next entries to send, oldest first; adds whose ban has ended are dropped on the way. */
  next(max: number): PushEntry[] {
    const now = this.clock.now();
    // Read first (a read never waits for the lock): most runs have nothing to drop, and write nothing.
    const anyEnded = statement(
      this.db,
      "SELECT 1 FROM crowdsec_push_queue WHERE kind = 'add' AND expires_at <= ? AND sent_batch IS NULL LIMIT 1",
    ).get(now);
    const ended = anyEnded
      ? writeWithShortWait(
          this.db,
          () =>
            statement(
              this.db,
              "DELETE FROM crowdsec_push_queue WHERE kind = 'add' AND expires_at <= ? AND sent_batch IS NULL",
            ).run(now).changes,
        )
      : 0;
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

  // The writes below run on the web thread while sending: each waits at most 50 ms for the lock and
  // throws SQLITE_BUSY otherwise (the pusher tries again soon; an entry whose mark could not be
  // written is confirmed upstream before any resend, so it is still sent once).

  /** Marks entries as handed to the request `batch` (epoch ms), before it is sent. */
  markSending(ids: readonly number[], batch: number): void {
    const mark = statement(
      this.db,
      'UPDATE crowdsec_push_queue SET sent_batch = ?, attempts = attempts + 1 WHERE id = ?',
    );
    this.inShortTransaction(() => {
      for (const id of ids) mark.run(batch, id);
    });
  }

  /** The LAPI did not take them (refused before reading, or checked upstream): they go again. */
  markUnsent(ids: readonly number[]): void {
    const mark = statement(this.db, 'UPDATE crowdsec_push_queue SET sent_batch = NULL WHERE id = ?');
    this.inShortTransaction(() => {
      for (const id of ids) mark.run(id);
    });
  }

  /** Done with them: the LAPI accepted them (or refused them for good). */
  remove(ids: readonly number[]): void {
    const remove = statement(this.db, 'DELETE FROM crowdsec_push_queue WHERE id = ?');
    this.inShortTransaction(() => {
      for (const id of ids) remove.run(id);
    });
  }

  /** Entries waiting: written, and still in memory. */
  get length(): number {
    return (
      (statement(this.db, 'SELECT COUNT(*) AS n FROM crowdsec_push_queue').get() as { n: number }).n +
      this.unwritten.length
    );
  }

  /** Forgets pushed decisions long past their end (the echo check needs only the live ones); short wait, throws SQLITE_BUSY. */
  prune(now = this.clock.now()): void {
    writeWithShortWait(this.db, () =>
      statement(this.db, 'DELETE FROM crowdsec_pushed WHERE until < ?').run(now - ECHO_GRACE_MS),
    );
  }

  private inShortTransaction(write: () => void): void {
    if (this.db.inTransaction) write();
    else writeWithShortWait(this.db, () => this.db.transaction(write)());
  }

  private enforceBound(now: number): void {
    const written = (statement(this.db, 'SELECT COUNT(*) AS n FROM crowdsec_push_queue').get() as { n: number }).n;
    let over = written - this.limit;
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
