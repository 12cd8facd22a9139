import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';

/** At most one log line per this interval, however many events are dropped (a flood must not flood the log). */
export const DROPPED_LOG_INTERVAL_MS = 60_000;

/**
 * Counts AMI input that was dropped (an unparseable block, a block over 1 MiB, a security event
 * with missing or broken fields) and logs it at most once a minute, with the number dropped since
 * the previous line and the latest problem.
 */
export class DroppedEventLog {
  /** Everything dropped since start (diagnostics and tests). */
  total = 0;
  private unlogged = 0;
  private lastLogAt = -Infinity;

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  note(problem: string): void {
    this.total++;
    this.unlogged++;
    const now = this.clock.now();
    if (now - this.lastLogAt < DROPPED_LOG_INTERVAL_MS) return;
    this.logger.warn({ dropped: this.unlogged, problem: problem.slice(0, 200) }, 'AMI input dropped');
    this.unlogged = 0;
    this.lastLogAt = now;
  }
}
