import type { Context, Middleware, Next } from 'koa';
import { authenticate as authenticateRequest } from '../auth/authenticate.ts';
import { authorize as authorizeAccess, type AccessTarget } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { reportRejection } from '../auth/credentials.ts';
import { HttpError } from '../wire/errors.ts';
import { asyncChannelOf } from '../queue/async-jobs.ts';
import type { JobOutcome } from '../queue/request-queue.ts';
import type { Services } from '../services.ts';
import { renderEnvelope, renderError, type RenderedEnvelope } from '../wire/envelope.ts';
import type { HttpVerb } from '../wire/types.ts';
import { jobFromRequest } from './job-input.ts';
import { sendCompressed, sendEnvelope } from './respond.ts';

/**
 * The one request pipeline of every queued route (v3 grammar, sip status, legacy sip, module
 * v1/v2): `authenticate()` → `authorize(target)` → `enqueue(job)` → `respond`. Each step is a small
 * middleware factory; they share what they found through `ctx.state` (see `stateOf`).
 */

/** What a queued request runs: the declared action and how its answer is labelled. */
export interface JobSpec {
  resource: string;
  operation: string;
  verb: HttpVerb;
  id?: string;
  /** The worker's `processor` label, for errors rendered on the web thread. */
  processor: string;
  /** The job's body; the request body when absent. */
  body?: unknown;
  /** Extra envelope members (the legacy `jsonapi`), on the worker's answer and on errors rendered here. */
  envelopeExtra?: Record<string, unknown>;
  /** Honour X-Async-Channel (v3 only): answer 200 at once and push the result to the channel. */
  allowAsync?: boolean;
}

/** What the pipeline's steps leave on `ctx.state` for the next ones. */
export interface PipelineState {
  principal?: Principal;
  /** Why authorize() refused an API key (reported to the audit log by authenticate()). */
  keyRefused?: string;
  answer?: { kind: 'async'; rendered: RenderedEnvelope } | { kind: 'outcome'; outcome: JobOutcome; spec: JobSpec };
}

/** The pipeline's part of `ctx.state`. */
export function stateOf(ctx: Context): PipelineState {
  return ctx.state as PipelineState;
}

/** The principal `authenticate()` found; a route that reads it without that step is a programming error. */
export function principalOf(ctx: Context): Principal {
  const principal = stateOf(ctx).principal;
  if (!principal) throw new Error('authenticate() must run before this step.');
  return principal;
}

/** Runs steps in order as one middleware; the last step's `next` is the outer one. */
export function pipeline(...steps: Middleware[]): Middleware {
  return (ctx, next) => {
    const run = (index: number): Promise<void> =>
      index === steps.length ? next() : Promise.resolve(steps[index]!(ctx, () => run(index + 1)));
    return run(0);
  };
}

/**
 * SPEC's authentication order (public, Bearer, session cookie, localhost bypass); 401 when none
 * applies. `isPublic` is asked per request (a v3 operation or module action may be public).
 */
export function authenticate(services: Services, isPublic: (ctx: Context) => boolean = () => false): Middleware {
  return async function authenticateStep(ctx: Context, next: Next) {
    stateOf(ctx).principal = await authenticateRequest(services, ctx, { isPublic: isPublic(ctx) });
    try {
      await next();
    } catch (error) {
      const { principal, keyRefused } = stateOf(ctx);
      if (keyRefused !== undefined && principal?.channel === 'bearer_token' && principal.kind === 'api_key') {
        reportRejection(services, ctx, {
          kind: 'rejected-key',
          status: 403,
          reason: keyRefused,
          keyId: principal.keyId,
        });
      }
      throw error;
    }
  };
}

/**
 * The permission check of the target's declaration (403). `target` may throw first: errors that
 * must not reach an anonymous caller (grammar 400/404/405) are raised here, after authentication.
 */
export function authorize(target: (ctx: Context) => Omit<AccessTarget, 'path' | 'method'>): Middleware {
  return async function authorizeStep(ctx: Context, next: Next) {
    const principal = principalOf(ctx);
    try {
      authorizeAccess(principal, { ...target(ctx), path: ctx.path, method: ctx.method });
    } catch (error) {
      // An API key used outside its allowed_paths: authenticate() reports it to the audit log.
      if (
        error instanceof HttpError &&
        error.status === 403 &&
        principal.channel === 'bearer_token' &&
        principal.kind === 'api_key'
      ) {
        stateOf(ctx).keyRefused = error.messages.join('; ');
      }
      throw error;
    }
    await next();
  };
}

/** Runs the job on the worker queue (503 when full), or hands it to the async channel; `respond` answers. */
export function enqueue(services: Services, spec: (ctx: Context) => JobSpec | Promise<JobSpec>): Middleware {
  return async function enqueueStep(ctx: Context, next: Next) {
    const job = await spec(ctx);
    const principal = principalOf(ctx);
    const asyncChannel = job.allowAsync ? asyncChannelOf(ctx) : undefined;
    const input = jobFromRequest(
      ctx,
      principal,
      { resource: job.resource, operation: job.operation, verb: job.verb, id: job.id },
      { body: job.body, envelopeExtra: job.envelopeExtra },
    );
    if (asyncChannel) {
      // X-Async-Channel: 200 at once; the result goes to the channel (queue/async-jobs.ts).
      const rendered = services.asyncJobs.start(input, {
        channel: asyncChannel,
        principal,
        function: job.operation,
        processor: job.processor,
      });
      stateOf(ctx).answer = { kind: 'async', rendered };
    } else {
      stateOf(ctx).answer = { kind: 'outcome', outcome: await services.queue.run(input), spec: job };
    }
    await next();
  };
}

/** Sends what `enqueue` got: the worker's envelope as-is (gzip passed through), or the web thread's 504/500. */
export function respond(services: Services): Middleware {
  return async function respondStep(ctx: Context) {
    const answer = stateOf(ctx).answer;
    if (!answer) throw new Error('enqueue() must run before respond.');
    if (answer.kind === 'async') return sendEnvelope(ctx, answer.rendered);
    const { outcome, spec } = answer;
    await sendOutcome(ctx, services, outcome, spec.operation, spec.processor, spec.envelopeExtra ?? {});
  };
}

/**
 * Turns a worker's outcome into the HTTP answer (the queue already published its events). `extra` adds
 * top-level members to the errors rendered here (the worker already rendered them on success).
 */
async function sendOutcome(
  ctx: Context,
  services: Services,
  outcome: JobOutcome,
  fn: string,
  processor: string,
  extra: Record<string, unknown>,
): Promise<void> {
  switch (outcome.kind) {
    case 'done':
      if (outcome.compressed) await sendCompressed(ctx, outcome.status, outcome.hash, outcome.body as Uint8Array);
      else sendEnvelope(ctx, { status: outcome.status, hash: outcome.hash, body: outcome.body as string });
      return;
    case 'expired':
      sendEnvelope(
        ctx,
        renderError(
          504,
          [
            `The request waited ${Math.round(outcome.ageMs / 1000)} s in the queue, longer than ` +
              `APIRequestTTL, and was dropped; retry later.`,
          ],
          extra,
        ),
      );
      return;
    case 'failed':
      sendEnvelope(
        ctx,
        renderEnvelope(
          {
            result: false,
            httpCode: 500,
            messages: {
              error: [
                `The request failed ${outcome.attempts} times and was parked as failed; the details are in the server log.`,
              ],
            },
          },
          { function: fn, processor, pid: process.pid },
          extra,
        ),
      );
      return;
  }
}
