import type { Clock } from '../clock.ts';
import type { SendOutcome } from './channel-config.ts';
import type { NotificationMessage } from './message.ts';

export interface DeliveryJob {
  channelId: number;
  message: NotificationMessage;
  /** 1 for the first try. */
  attempt: number;
  dueAt: number;
}

export interface DeliveryLimits {
  /** Jobs waiting or retrying; a job beyond it is dropped (and recorded), never queued. */
  maxJobs: number;
  /** Sends in flight at once. */
  maxInFlight: number;
  /** Tries per message, the first included. */
  maxAttempts: number;
  /** Wait before the first retry; doubled per retry up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DELIVERY_LIMITS: DeliveryLimits = {
  maxJobs: 200,
  maxInFlight: 4,
  maxAttempts: 5,
  backoffMs: 30_000,
  maxBackoffMs: 15 * 60_000,
};

export interface DeliveryHooks {
  send(job: DeliveryJob): Promise<SendOutcome>;
  /** Each attempt's outcome; `final` when no retry follows (delivered, or the last try failed). */
  settled(job: DeliveryJob, outcome: SendOutcome, final: boolean): void;
  /** A job refused because the queue is full. */
  dropped(job: DeliveryJob): void;
}

/**
 * The web thread's bounded, in-memory send queue: jobs run when due (`tick`), at most
 * `maxInFlight` at once, each failure retried with doubling backoff up to `maxAttempts`. Nothing
 * here waits on a receiver: a send is a promise whose outcome comes back later. Time comes from the
 * clock, so tests move it instead of sleeping.
 */
export class DeliveryQueue {
  private readonly waiting: DeliveryJob[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly clock: Clock,
    private readonly hooks: DeliveryHooks,
    private readonly limits: DeliveryLimits = DELIVERY_LIMITS,
  ) {}

  get length(): number {
    return this.waiting.length + this.running.size;
  }

  enqueue(channelId: number, message: NotificationMessage): boolean {
    const job: DeliveryJob = { channelId, message, attempt: 1, dueAt: this.clock.now() };
    if (this.closed) return false;
    if (this.length >= this.limits.maxJobs) {
      this.hooks.dropped(job);
      return false;
    }
    this.waiting.push(job);
    this.tick();
    return true;
  }

  private closed = false;

  /** Drops what waits and starts nothing more (the server stops; messages are in memory only). */
  close(): void {
    this.closed = true;
    this.waiting.length = 0;
  }

  /** Starts the jobs that are due, as far as the in-flight bound allows. */
  tick(): void {
    if (this.closed) return;
    const now = this.clock.now();
    for (let i = 0; i < this.waiting.length && this.running.size < this.limits.maxInFlight; ) {
      const job = this.waiting[i]!;
      if (job.dueAt > now) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.start(job);
    }
  }

  /** Resolves once no send is in flight (tests await it after moving the clock). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  /** When the next waiting job is due, if any. */
  nextDue(): number | null {
    return this.waiting.reduce<number | null>(
      (next, job) => (next === null || job.dueAt < next ? job.dueAt : next),
      null,
    );
  }

  private backoff(attempt: number): number {
    return Math.min(this.limits.backoffMs * 2 ** (attempt - 1), this.limits.maxBackoffMs);
  }

  private start(job: DeliveryJob): void {
    const run = this.hooks
      .send(job)
      .catch((error: unknown): SendOutcome => ({ ok: false, status: 0, message: String(error) }))
      .then((outcome) => {
        const final = outcome.ok || job.attempt >= this.limits.maxAttempts;
        this.hooks.settled(job, outcome, final);
        if (!final && !this.closed)
          this.waiting.push({ ...job, attempt: job.attempt + 1, dueAt: this.clock.now() + this.backoff(job.attempt) });
      })
      .finally(() => {
        this.running.delete(run);
        this.tick();
      });
    this.running.add(run);
  }
}
