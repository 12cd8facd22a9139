import type { Clock } from '../clock.ts';
import { isSqliteBusy, writeWithShortWait } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import { initialLinkStatus, writeLinkStatus, type DirectionStatus, type LinkStatus } from './link-state.ts';

/** How often, at most, the status row is rewritten while the link is busy. */
const WRITE_EVERY_MS = 500;

/** The web thread's copy of the link status; written to SQLite (for link:getStatus) at most every 500 ms. */
export class LinkStatusRecorder {
  readonly status: LinkStatus = initialLinkStatus();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Records a successful exchange in one direction. */
  ok(direction: 'push' | 'pull'): void {
    const d: DirectionStatus = this.status[direction];
    d.state = 'ok';
    d.lastOkAt = this.clock.now();
    this.changed();
  }

  /** Records a failed exchange with its reason. */
  fail(direction: 'push' | 'pull', reason: string): void {
    const d: DirectionStatus = this.status[direction];
    d.state = 'error';
    d.lastError = reason;
    d.lastErrorAt = this.clock.now();
    this.changed();
  }

  /** Counts a skipped upstream decision by reason. */
  skip(reason: string, count = 1): void {
    if (count <= 0) return;
    this.status.pull.skipped[reason] = (this.status.pull.skipped[reason] ?? 0) + count;
    this.changed();
  }

  /** Schedules a write of the status row (coalesced). */
  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), WRITE_EVERY_MS);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.status.updatedAt = this.clock.now();
    try {
      // A short wait at most: a worker's long write (an import) must not stall the web thread; the
      // status is written again at the next change or in WRITE_EVERY_MS.
      writeWithShortWait(this.db, () => writeLinkStatus(this.db, this.status));
    } catch (error) {
      if (isSqliteBusy(error)) this.changed();
      // Otherwise the database is closing (stop): the next start writes a fresh status.
    }
  }
}
