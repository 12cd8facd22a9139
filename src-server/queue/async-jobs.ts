import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { Clock } from '../clock.ts';
import { renderEnvelope, renderError, type RenderedEnvelope } from '../wire/envelope.ts';
import { HttpError, tooManyRequests } from '../wire/errors.ts';
import { malformedChannel, queueFull } from './errors.ts';
import type { CachedQueueLimits } from './limits.ts';
import type { JobInput, JobOutcome, RequestQueue } from './request-queue.ts';
import { RESULT_LIFETIME_MS, ResultStore } from './result-store.ts';

const gunzipAsync = promisify(gunzip);

/** The request header that makes a v3 request asynchronous. */
export const ASYNC_CHANNEL_HEADER = 'x-async-channel';
const CHANNEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The channel named by X-Async-Channel; undefined when absent, 400 when malformed. */
export function asyncChannelOf(ctx: { get(field: string): string }): string | undefined {
  const value = ctx.get(ASYNC_CHANNEL_HEADER);
  if (value === '') return undefined;
  return checkChannelName(value);
}

/** Validates a channel name (header or `?channel=`): 1-128 of letters, digits and `._:-`. */
export function checkChannelName(value: unknown): string {
  if (typeof value !== 'string' || !CHANNEL_NAME.test(value)) {
    throw malformedChannel();
  }
  return value;
}

/**
 * Who may see a job's result: the caller who started it. Localhost sees everything (the bypass
 * skips access control); results of public requests are visible to any authenticated viewer.
 */
export function ownerOf(principal: Principal): string {
  switch (principal.channel) {
    case 'public':
    case 'localhost':
      return principal.channel;
    case 'session':
      return `user:${principal.userName}`;
    case 'bearer_token':
      return principal.kind === 'jwt' ? `user:${principal.userName}` : `api_key:${principal.keyId}`;
  }
}

function canSee(owner: string, viewer: string): boolean {
  return viewer === 'localhost' || owner === viewer || owner === 'public';
}

/**
 * What one caller (an API key, a user, localhost) may hold at once: results running and kept
 * count together, and the kept bytes are capped. 400 reads by one key once cost 175 MB.
 */
export const MAX_RESULTS_PER_OWNER = 100;
export const MAX_RESULT_BYTES_PER_OWNER = 8 * 1024 * 1024;

/** What an owner holds: jobs running or kept, and the kept bytes. */
interface OwnerUsage {
  jobs: number;
  bytes: number;
}

/** A finished asynchronous job, kept RESULT_LIFETIME_MS for retrieval. */
export interface FinishedJob {
  jobId: string;
  channel: string;
  owner: string;
  status: number;
  hash: string;
  /** The finished envelope, as the synchronous request would have received it. */
  body: string;
}

/** What a channel subscriber receives: one Server-Sent Event per finished job. */
export type JobListener = (job: FinishedJob) => void;

export type JobLookup = { state: 'pending'; channel: string } | { state: 'done'; job: FinishedJob } | undefined;

export interface AsyncJobsOptions {
  queue: RequestQueue;
  limits: CachedQueueLimits;
  clock: Clock;
  logger: Logger;
}

interface Subscriber {
  viewer: string;
  listener: JobListener;
}

/**
 * Asynchronous requests (X-Async-Channel): the job is queued without a TTL, the caller gets
 * `{jobId, channel}` at once, and the finished envelope is pushed to the channel's subscribers and
 * kept 120 s. A result nobody was subscribed for is replayed to the first viewer who subscribes.
 */
export class AsyncJobs {
  private readonly results: ResultStore<FinishedJob>;
  private readonly pending = new Map<string, { channel: string; owner: string }>();
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** jobId -> channel of results not yet pushed to anyone, in finish (= expiry) order. */
  private readonly undelivered = new Map<string, string>();
  private readonly usage = new Map<string, OwnerUsage>();

  constructor(private readonly options: AsyncJobsOptions) {
    this.results = new ResultStore<FinishedJob>(options.clock, RESULT_LIFETIME_MS, (job) =>
      this.release(job.owner, 1, Buffer.byteLength(job.body)),
    );
  }

  /**
   * Queues the job and returns the immediate 200 answer. Throws 503 when the queue is full, and 429
   * (with Retry-After) when the caller already holds its share of results, before acknowledging.
   */
  start(
    input: JobInput,
    meta: { channel: string; principal: Principal; function: string; processor: string },
  ): RenderedEnvelope {
    const { queue, limits } = this.options;
    if (queue.waiting >= limits.current().maxLength) throw queueFull();
    const owner = ownerOf(meta.principal);
    this.refuseOverShare(owner);
    const jobId = randomUUID();
    this.pending.set(jobId, { channel: meta.channel, owner });
    this.account(owner, 1, 0);
    this.runDetached({ ...input, jobId, ttlExempt: true }, meta, owner).catch((error: unknown) =>
      this.options.logger.error({ err: error, jobId }, 'async job result could not be delivered'),
    );
    return renderEnvelope(
      { result: true, data: { jobId, channel: meta.channel } },
      { function: meta.function, processor: meta.processor, pid: process.pid },
    );
  }

  /** A job's state as `viewer` may see it: pending, done, or undefined (unknown, expired, or not theirs). */
  find(jobId: string, channel: string, viewer: string): JobLookup {
    const running = this.pending.get(jobId);
    if (running)
      return running.channel === channel && canSee(running.owner, viewer) ? { state: 'pending', channel } : undefined;
    const job = this.results.get(jobId);
    return job && job.channel === channel && canSee(job.owner, viewer) ? { state: 'done', job } : undefined;
  }

  /** Listens on a channel; results finished earlier that nobody received are replayed at once. */
  subscribe(channel: string, viewer: string, listener: JobListener): () => void {
    const subscriber: Subscriber = { viewer, listener };
    let set = this.subscribers.get(channel);
    if (!set) this.subscribers.set(channel, (set = new Set()));
    set.add(subscriber);
    for (const [jobId, jobChannel] of this.undelivered) {
      if (jobChannel !== channel) continue;
      const job = this.results.get(jobId);
      if (!job) this.undelivered.delete(jobId);
      else if (canSee(job.owner, viewer)) {
        this.undelivered.delete(jobId);
        listener(job);
      }
    }
    return () => {
      set.delete(subscriber);
      if (set.size === 0 && this.subscribers.get(channel) === set) this.subscribers.delete(channel);
    };
  }

  /** Open subscriptions, all channels together. */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }

  /** Runs the job with no client waiting, then stores and pushes its envelope, whatever happened. */
  private async runDetached(
    input: JobInput & { jobId: string },
    meta: { channel: string; function: string; processor: string },
    owner: string,
  ): Promise<void> {
    let rendered: RenderedEnvelope;
    try {
      rendered = await this.render(await this.options.queue.run(input), meta);
    } catch (error) {
      if (!(error instanceof HttpError))
        this.options.logger.error({ err: error, jobId: input.jobId }, 'async job failed');
      rendered =
        error instanceof HttpError
          ? renderError(error.status, error.messages)
          : renderError(500, ['Internal server error; the details are in the server log.']);
    }
    this.finish(input.jobId, meta, owner, rendered);
  }

  private async render(outcome: JobOutcome, meta: { function: string; processor: string }): Promise<RenderedEnvelope> {
    switch (outcome.kind) {
      case 'done':
        return {
          status: outcome.status,
          hash: outcome.hash,
          // Large results arrive gzipped; inflated off the event loop, once, for the store and the stream.
          body: outcome.compressed
            ? (await gunzipAsync(outcome.body as Uint8Array)).toString('utf8')
            : (outcome.body as string),
        };
      case 'expired': // cannot happen (async jobs are TTL-exempt), answered like the synchronous path
        return renderError(504, ['The request waited longer than APIRequestTTL and was dropped; retry later.']);
      case 'failed':
        return renderEnvelope(
          {
            result: false,
            httpCode: 500,
            messages: {
              error: [
                `The request failed ${outcome.attempts} times and was parked as failed; the details are in the server log.`,
              ],
            },
          },
          { function: meta.function, processor: meta.processor, pid: process.pid },
        );
    }
  }

  private finish(jobId: string, meta: { channel: string }, owner: string, finished: RenderedEnvelope): void {
    this.pending.delete(jobId);
    const rendered = this.withinShare(owner, finished);
    const job: FinishedJob = {
      jobId,
      channel: meta.channel,
      owner,
      status: rendered.status,
      hash: rendered.hash,
      body: rendered.body,
    };
    this.account(owner, 0, Buffer.byteLength(job.body));
    this.results.put(jobId, job);
    this.sweepUndelivered();
    let delivered = false;
    for (const subscriber of this.subscribers.get(meta.channel) ?? []) {
      if (!canSee(owner, subscriber.viewer)) continue;
      subscriber.listener(job);
      delivered = true;
    }
    if (!delivered) this.undelivered.set(jobId, meta.channel);
  }

  /** 429 when `owner` already holds MAX_RESULTS_PER_OWNER jobs or MAX_RESULT_BYTES_PER_OWNER bytes of results. */
  private refuseOverShare(owner: string): void {
    this.results.sweep();
    const used = this.usage.get(owner) ?? { jobs: 0, bytes: 0 };
    if (used.jobs < MAX_RESULTS_PER_OWNER && used.bytes < MAX_RESULT_BYTES_PER_OWNER) return;
    const freedAt = this.results.firstExpiry((job) => job.owner === owner);
    const retryAfter = Math.max(
      1,
      Math.ceil(((freedAt ?? this.options.clock.now() + 1000) - this.options.clock.now()) / 1000),
    );
    const what =
      used.jobs >= MAX_RESULTS_PER_OWNER
        ? `${used.jobs} asynchronous results (the most one caller may hold is ${MAX_RESULTS_PER_OWNER})`
        : `${used.bytes} bytes of asynchronous results (the most one caller may hold is ${MAX_RESULT_BYTES_PER_OWNER})`;
    throw tooManyRequests(
      `This caller already holds ${what}; results are kept 120 s. Fetch them or wait ` +
        `${retryAfter} s, or send the request without X-Async-Channel.`,
      retryAfter,
    );
  }

  /**
   * The envelope to keep for an acknowledged job: its own, or, when keeping it would take its
   * owner past the byte share, a 503 that says the request ran, how it answered and why its
   * result was not kept. Nothing acknowledged is lost without saying so.
   */
  private withinShare(owner: string, rendered: RenderedEnvelope): RenderedEnvelope {
    const size = Buffer.byteLength(rendered.body);
    const used = this.usage.get(owner)?.bytes ?? 0;
    if (used + size <= MAX_RESULT_BYTES_PER_OWNER) return rendered;
    this.options.logger.warn({ owner, size, used }, "async result not kept: over the caller's share");
    return renderError(503, [
      `The request ran and answered ${rendered.status}, but its result (${size} bytes) was not ` +
        `kept: this caller's kept results already use ${used} of ${MAX_RESULT_BYTES_PER_OWNER} ` +
        `bytes. Fetch or let them expire (120 s); read large results without X-Async-Channel.`,
    ]);
  }

  private account(owner: string, jobs: number, bytes: number): void {
    const used = this.usage.get(owner) ?? { jobs: 0, bytes: 0 };
    this.usage.set(owner, { jobs: used.jobs + jobs, bytes: used.bytes + bytes });
  }

  private release(owner: string, jobs: number, bytes: number): void {
    const used = this.usage.get(owner);
    if (!used) return;
    const next = { jobs: used.jobs - jobs, bytes: used.bytes - bytes };
    if (next.jobs <= 0) this.usage.delete(owner);
    else this.usage.set(owner, next);
  }

  /** Forgets undelivered ids whose result expired; insertion order is expiry order, so it stops early. */
  private sweepUndelivered(): void {
    for (const jobId of this.undelivered.keys()) {
      if (this.results.get(jobId)) break;
      this.undelivered.delete(jobId);
    }
  }
}
