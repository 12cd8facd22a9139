import { randomUUID } from 'node:crypto';
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import { gatewayTimeout, serviceUnavailable } from '../http/errors.ts';
import type { Db } from '../storage/database.ts';
import type { CachedQueueLimits } from './limits.ts';
import type { JobRequest, JobResponse, WorkerInit } from './messages.ts';

/** SPEC: a failed job is tried 3 times, then parked as failed. */
export const MAX_ATTEMPTS = 3;

export type JobInput = Omit<JobRequest, 'jobId' | 'enqueuedAt' | 'ttlMs' | 'attempt'> & { jobId?: string };

export type JobOutcome =
  | JobResponse
  | { kind: 'failed'; attempts: number; error: string };

export interface RequestQueueOptions {
  workerFile: URL;
  workers: number;
  workerInit: WorkerInit;
  /** Extra Node flags for workers (the TypeScript loader when running from source). */
  execArgv: string[];
  limits: CachedQueueLimits;
  maxWaitMs: number;
  db: Db;
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
      minThreads: options.workers,
      maxThreads: options.workers,
      concurrentTasksPerWorker: 1,
      idleTimeout: Number.POSITIVE_INFINITY,
      // An idle worker keeps its event loop: with Atomics.wait parking, timers, imports and any work an
      // action left running stood still until the next job arrived.
      atomics: 'disabled',
      workerData: options.workerInit,
      execArgv: options.execArgv,
    });
    this.pool.on('error', (error: unknown) => options.logger.error({ err: error }, 'worker pool error'));
  }

  /** Jobs waiting for a free worker (running ones excluded). */
  get waiting(): number {
    return this.pool.queueSize;
  }


  /** Queues a job and resolves with its outcome. Throws 503 when the queue is full, 504 past the wait limit. */
  async run(input: JobInput): Promise<JobOutcome> {
    const limits = this.options.limits.current();
    if (this.pool.queueSize >= limits.maxLength) throw serviceUnavailable();

    const job: JobRequest = {
      ...input,
      jobId: input.jobId ?? randomUUID(),
      // Real time, not the injectable clock: workers check the age against their own Date.now().
      enqueuedAt: Date.now(),
      ttlMs: limits.ttlMs,
      attempt: 1,
    };
    const deadline = Date.now() + this.options.maxWaitMs;
    let lastError = '';
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        return await this.withDeadline(this.pool.run({ ...job, attempt }), deadline, job);
      } catch (error) {
        if (error instanceof Error && error.name === 'HttpError') throw error;
        lastError = error instanceof Error ? error.message : String(error);
        this.options.logger.warn({ jobId: job.jobId, target: job.target, attempt, error: lastError }, 'job failed');
      }
    }
    this.park(job, lastError);
    return { kind: 'failed', attempts: MAX_ATTEMPTS, error: lastError };
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private withDeadline(promise: Promise<JobResponse>, deadline: number, job: JobRequest): Promise<JobResponse> {
    if (job.ttlExempt) return promise; // async jobs have no waiting client
    const remaining = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(gatewayTimeout(`No worker finished the request within ${Math.round(this.options.maxWaitMs / 1000)} s; retry later.`)),
        remaining,
      );
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  /** SPEC: after the last attempt the job is parked as failed (kept for the operator). */
  private park(job: JobRequest, error: string): void {
    this.options.db
      .prepare('INSERT INTO failed_jobs (job_id, target, attempts, error, failed_at) VALUES (?, ?, ?, ?, ?)')
      .run(job.jobId, JSON.stringify(job.target), MAX_ATTEMPTS, error.slice(0, 2000), new Date().toISOString());
    this.options.logger.error({ jobId: job.jobId, target: job.target, error }, 'job parked as failed');
  }
}
