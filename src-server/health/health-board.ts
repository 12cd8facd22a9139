import type { Logger } from 'pino';
import type { ServerBus } from '../bus.ts';
import type { Clock } from '../clock.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import type { HealthCheckKind } from '../wire/types.ts';
import type { Finding } from './finding.ts';
import { clearChecks, readChecks, storeCheck, type StoredCheck } from './health-store.ts';

/** The first reminder of a check that stays failing comes this long after it failed (issue 5/6: at most every 10 min). */
export const FIRST_REMINDER_MS = 10 * 60_000;
/** Reminders then come at doubling intervals up to this one: a check failing for days is not 144 lines a day. */
export const MAX_REMINDER_MS = 4 * 60 * 60_000;

/** Checks raised by events (not found again by a tick): kept across a restart. */
const EVENT_KINDS: readonly HealthCheckKind[] = ['account-flagged', 'cap-drops-own'];

interface Entry {
  check: StoredCheck;
  sinceMs: number;
  nextReminderAt: number;
  reminderGap: number;
}

/**
 * The failing checks and their transitions: a check that starts failing, one that is ok again,
 * and a reminder of one that stays failing are each one `health-changed` event on the bus (the
 * terminal and the notifications follow it), and one row write for system:getHealth.
 */
export class HealthBoard {
  private readonly failing = new Map<string, Entry>();

  constructor(
    private readonly db: Db,
    private readonly bus: ServerBus,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    clearChecks(db, EVENT_KINDS);
    for (const check of readChecks(db)) {
      const sinceMs = Date.parse(check.since);
      this.failing.set(check.id, {
        check,
        sinceMs,
        nextReminderAt: clock.now() + FIRST_REMINDER_MS,
        reminderGap: FIRST_REMINDER_MS,
      });
    }
  }

  /**
   * The findings of one evaluation of some kinds: new ones fail, known ones stay (their words
   * follow), and a failing check of those kinds that is not found any more is ok again.
   */
  sync(kinds: ReadonlySet<HealthCheckKind>, findings: readonly Finding[]): void {
    const found = new Set<string>();
    for (const finding of findings) {
      found.add(finding.id);
      this.raise(finding);
    }
    for (const [id, entry] of this.failing) if (kinds.has(entry.check.kind) && !found.has(id)) this.clear(id);
  }

  /** A check failing now: raised when new, its words updated when known. */
  raise(finding: Finding): void {
    const now = this.clock.now();
    const known = this.failing.get(finding.id);
    if (known) {
      const changed = known.check.title !== finding.title || known.check.detail !== finding.detail;
      known.check = { ...known.check, ...finding };
      if (changed) this.store(known.check);
      return;
    }
    const check: StoredCheck = { ...finding, state: 'failing', since: iso(now) };
    this.failing.set(finding.id, {
      check,
      sinceMs: now,
      nextReminderAt: now + FIRST_REMINDER_MS,
      reminderGap: FIRST_REMINDER_MS,
    });
    this.store(check);
    this.emit(check);
  }

  /** A check that is ok again (nothing when it was not failing). */
  clear(id: string): void {
    const entry = this.failing.get(id);
    if (!entry) return;
    this.failing.delete(id);
    const now = this.clock.now();
    const check: StoredCheck = {
      ...entry.check,
      state: 'ok',
      title: entry.check.recoveredTitle ?? entry.check.title,
      since: iso(now),
      failedForMs: now - entry.sinceMs,
    };
    this.store(check);
    this.emit(check);
  }

  /** Reminders of checks that stay failing: the first after 10 min, then at doubling intervals. */
  remind(): void {
    const now = this.clock.now();
    for (const entry of this.failing.values()) {
      if (now < entry.nextReminderAt) continue;
      entry.reminderGap = Math.min(MAX_REMINDER_MS, entry.reminderGap * 2);
      entry.nextReminderAt = now + entry.reminderGap;
      this.emit({ ...entry.check, failedForMs: now - entry.sinceMs, reminder: true });
    }
  }

  /** The failing checks now. */
  list(): StoredCheck[] {
    return [...this.failing.values()].map((entry) => entry.check);
  }

  /** The event carries the check as the wire type says (not the console's redacted words or page). */
  private emit(stored: StoredCheck): void {
    const { redactedTitle: _redacted, recoveredTitle: _recovered, area: _area, ...check } = stored;
    this.bus.emit({ type: 'health-changed', check });
  }

  private store(check: StoredCheck): void {
    // A worker holding the lock (an import) for long: the row waits for the check's next change.
    tryBackgroundWrite(
      this.db,
      () => storeCheck(this.db, check),
      (error) => this.logger.warn({ err: error, check: check.id }, 'health check not stored; kept for the next change'),
    );
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
