import { randomUUID } from 'node:crypto';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import { HttpError } from '../wire/errors.ts';
import { databaseBusy, jobNotTransferable, queueFull, waitTimeout } from './errors.ts';
import type { ServerBus } from '../bus.ts';
import type { Db } from '../storage/database.ts';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import { pruneFailedJobs, recordFailedJob } from '../storage/failed-jobs.ts';
import { JobError, toWireError } from './job-error.ts';
import type { CachedQueueLimits } from './limits.ts';
import type { JobRequest, JobResponse, WorkerInit } from './messages.ts';
import { publishWorkerEvents } from './worker-events.ts';

/** SPEC: a failed job is tried 3 times, then parked as failed. */
export const MAX_ATTEMPTS = 3;

export type JobInput = Omit<JobRequest, 'jobId' | 'enqueuedAt' | 'ttlMs' | 'attempt'> & { jobId?: string };

/** What a caller of run() gets: the worker's answer, an expired job, or a job parked after MAX_ATTEMPTS. */
export type JobOutcome = Exclude<JobResponse, { kind: 'error' }> | { kind: 'failed'; attempts: number; error: string };

export interface RequestQueueOptions {
  workerFile: URL;
  workers: number;
  /** A thread beyond the first exits after this long without a job. */
  /** Threads kept while idle (at most `workers`). */
  workerIdleThreads: number;
  workerIdleMs: number;
  workerInit: WorkerInit;
  /** Extra Node flags for workers (the TypeScript loader when running from source). */
  execArgv: string[];
  limits: CachedQueueLimits;
  maxWaitMs: number;
  db: Db;
  /** Where a finished job's events go (publishWorkerEvents), whoever awaits the job. */
  bus: ServerBus;
  logger: Logger;
}

/**
 * The bounded request queue in front of the worker pool. piscina owns the threads, their
 * replacement after a crash and the FIFO; this class owns the SPEC's limits: queue length (503),
 * request age (dropped in the worker), retries and parking, and the web thread's wait.
 * The web thread awaits the worker's message: no polling loop.
 */
export class RequestQueue {
  private readonly pool: Piscina;

  constructor(private readonly options: RequestQueueOptions) {
    this.pool = new Piscina({
      filename: options.workerFile.href,
      // Two threads while idle by default, up to `workers` under load. Two, so that a short job (a filter save)
      // never waits for a thread to start (module loading: 0.2 s quiet, over 1 s on a busy machine) while a long
      // one (an import) holds the other. Not all: each costs 25 MB idle; one beyond these exits when idle.
      minThreads: Math.min(options.workerIdleThreads, options.workers),
      maxThreads: options.workers,
      concurrentTasksPerWorker: 1,
      idleTimeout: options.workerIdleMs,
      // An idle worker keeps its event loop: with Atomics.wait parking, timers, imports and any work an
      // action left running stood still until the next job arrived.
      atomics: 'disabled',
      workerData: options.workerInit,
      execArgv: options.execArgv,
    });
    this.pool.on('error', (error: unknown) => options.logger.error({ err: error }, 'worker pool error'));
    pruneFailedJobs(options.db); // what a previous run parked ages out even if nothing fails now
  }

  /** Worker threads alive now (`workerIdleThreads` while idle, up to `workers` under load). */
  get threads(): number {
    return this.pool.threads.length;
  }

  /** Jobs waiting for a free worker (running ones excluded). */
  get waiting(): number {
    return this.pool.queueSize;
  }

  /**
   * Queues a job and resolves with its outcome. Throws 503 when the queue is full or the database
   * stayed busy, 504 past the wait limit, 400 for a job that cannot reach a worker. Only unexpected
   * failures are retried and then parked. A finished job's events reach the bus here, once, before
   * the caller sees the outcome.
   */
  async run(input: JobInput): Promise<JobOutcome> {
    const outcome = await this.runToOutcome(input);
    publishWorkerEvents(this.options.bus, outcome);
    return outcome;
  }

  private async runToOutcome(input: JobInput): Promise<JobOutcome> {
    const limits = this.options.limits.current();
    if (this.pool.queueSize >= limits.maxLength) throw queueFull();

    const job: JobRequest = {
      ...input,
      jobId: input.jobId ?? randomUUID(),
      // Real time, not the injectable clock: workers check the age against their own Date.now().
      enqueuedAt: Date.now(),
      ttlMs: limits.ttlMs,
      attempt: 1,
    };
    const deadline = Date.now() + this.options.maxWaitMs;
    let lastError: JobError | undefined;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const outcome = await this.attempt({ ...job, attempt }, deadline);
      if (outcome.kind !== 'error') return outcome;
      const error = new JobError(outcome.failure, outcome.error);
      const context = { err: error, jobId: job.jobId, target: job.target, attempt };
      if (error.kind === 'input') {
        this.options.logger.warn(context, 'job refused: it cannot be handed to a worker');
        throw jobNotTransferable();
      }
      if (error.kind === 'busy') {
        this.options.logger.warn(context, 'job failed: the database stayed busy');
        throw databaseBusy();
      }
      this.options.logger.warn(context, 'job failed');
      lastError = error;
    }
    this.park(job, lastError!);
    return { kind: 'failed', attempts: MAX_ATTEMPTS, error: lastError!.summary };
  }

  /** One try: the worker's answer, or its failure as a typed `error` response (never a throw, except HttpErrors). */
  private async attempt(job: JobRequest, deadline: number): Promise<JobResponse> {
    try {
      return await this.withDeadline(this.pool.run(job), deadline, job);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      // The worker returns its own failures as data, so a rejection means the job never finished in
      // one: either it could not be posted (structured clone refused it: an input error) or the
      // thread died under it.
      return { kind: 'error', failure: isUndeliverable(error) ? 'input' : 'unexpected', error: toWireError(error) };
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private withDeadline(promise: Promise<JobResponse>, deadline: number, job: JobRequest): Promise<JobResponse> {
    if (job.ttlExempt) return promise; // async jobs have no waiting client
    const remaining = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(waitTimeout(this.options.maxWaitMs)), remaining);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * SPEC: after the last attempt the job is parked as failed (kept for the operator). The table is
   * pruned on each insert so it cannot grow without bound (FAILED_JOBS_RETENTION).
   */
  private park(job: JobRequest, error: JobError): void {
    // A locked database must not turn the job's own error into another one: the record is best effort.
    tryBackgroundWrite(
      this.options.db,
      () =>
        recordFailedJob(this.options.db, {
          jobId: job.jobId,
          target: JSON.stringify(job.target),
          attempts: MAX_ATTEMPTS,
          error: error.summary,
        }),
      (failure) => this.options.logger.warn({ err: failure, jobId: job.jobId }, 'failed job not recorded'),
    );
    this.options.logger.error({ err: error, jobId: job.jobId, target: job.target }, 'job parked as failed');
  }
}

/**
 * Errors of posting a job to a worker: the structured clone refused the message (a value it
 * cannot copy, or nesting deep enough to exhaust the stack).
 */
function isUndeliverable(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'DataCloneError' || (error instanceof RangeError && /call stack/i.test(error.message));
}
