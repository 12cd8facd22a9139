import type { Context } from 'koa';
import { authenticate } from '../auth/authenticate.ts';
import { authorize } from '../auth/authorize.ts';
import { asyncChannelOf } from '../queue/async-jobs.ts';
import type { JobOutcome } from '../queue/request-queue.ts';
import type { Services } from '../services.ts';
import { renderEnvelope, renderError } from '../wire/envelope.ts';
import { HttpError, notFound } from '../wire/errors.ts';
import { jobFromRequest } from './job-input.ts';
import { sendCompressed, sendEnvelope } from './respond.ts';
import { parseV3Path, type V3Path } from './v3-path.ts';
import { resolveOperation, verbOf, type ResolvedOperation } from './v3-operation.ts';

export const V3_PREFIX = '/pbxcore/api/v3/';

/**
 * Serves the generic v3 grammar: parse, resolve the declared operation, authenticate (public,
 * Bearer, localhost), authorise, then run the action on the queue. Grammar errors are reported
 * after authentication so an anonymous remote caller learns nothing but 401.
 */
export function v3Handler(services: Services) {
  return async function handleV3(ctx: Context): Promise<void> {
    const verb = verbOf(ctx.method);
    let path: V3Path | undefined;
    let resolved: ResolvedOperation | undefined;
    let grammarError: HttpError | undefined;
    try {
      path = parseV3Path(ctx.path.slice(V3_PREFIX.length));
      const definition = services.registry.get(path.resource);
      if (!definition) throw notFound(`Unknown resource "${path.resource}".`);
      resolved = resolveOperation(definition.declaration, path, verb);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      grammarError = error;
    }

    const principal = await authenticate(services, ctx, { isPublic: resolved?.isPublic ?? false });
    if (grammarError || !path || !resolved || !verb) throw grammarError ?? notFound();
    const declaration = services.registry.get(path.resource)!.declaration;
    authorize(principal, { declaration, level: resolved.level, path: ctx.path, method: ctx.method });

    const asyncChannel = asyncChannelOf(ctx);

    const job = jobFromRequest(ctx, principal, { resource: path.resource, operation: resolved.operation, verb, id: path.id });
    const processor = declaration.processor ?? declaration.name;
    if (asyncChannel && services.asyncJobs) {
      // X-Async-Channel: 200 at once; the result goes to the channel (queue/async-jobs.ts).
      sendEnvelope(ctx, services.asyncJobs.start(job, { channel: asyncChannel, principal, function: resolved.operation, processor }));
      return;
    }
    await sendOutcome(ctx, services, await services.queue.run(job), resolved.operation, processor);
  };
}

/**
 * Turns a worker's outcome into the HTTP answer and publishes the events it raised. `extra` adds
 * top-level members to the errors rendered here (the worker already rendered them on success).
 */
export async function sendOutcome(
  ctx: Context,
  services: Services,
  outcome: JobOutcome,
  fn: string,
  processor: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  switch (outcome.kind) {
    case 'done':
      for (const event of outcome.events) services.bus.emit(event);
      if (outcome.compressed) await sendCompressed(ctx, outcome.status, outcome.hash, outcome.body as Uint8Array);
      else sendEnvelope(ctx, { status: outcome.status, hash: outcome.hash, body: outcome.body as string });
      return;
    case 'expired':
      sendEnvelope(ctx, renderError(504, [`The request waited ${Math.round(outcome.ageMs / 1000)} s in the queue, longer than APIRequestTTL, and was dropped; retry later.`], extra));
      return;
    case 'failed':
      sendEnvelope(
        ctx,
        renderEnvelope(
          { result: false, httpCode: 500, messages: { error: [`The request failed ${outcome.attempts} times and was parked as failed; the details are in the server log.`] } },
          { function: fn, processor, pid: process.pid },
          extra,
        ),
      );
      return;
  }
}
