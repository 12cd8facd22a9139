import type { Context } from 'koa';
import { authenticate } from '../auth/authenticate.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import { jobFromRequest } from '../http/job-input.ts';
import type { JobOutcome } from '../queue/request-queue.ts';
import type { HttpVerb, Level } from '../resources/types.ts';
import type { Services } from '../services.ts';

export interface QueuedTarget {
  resource: string;
  operation: string;
  verb: HttpVerb;
  id?: string;
  level: Level;
  body?: unknown;
  /** Extra envelope members, e.g. the legacy `jsonapi`. */
  envelopeExtra?: Record<string, unknown>;
}

/** Authenticates the caller (session cookie, Bearer or localhost) and checks the resource's permission. */
export async function authenticateFor(ctx: Context, services: Services, target: Pick<QueuedTarget, 'resource' | 'level'>): Promise<Principal> {
  const principal = await authenticate(services, ctx, { isPublic: false });
  const definition = services.registry.get(target.resource);
  if (!definition) throw new Error(`Resource ${target.resource} is not registered.`);
  authorize(principal, { declaration: definition.declaration, level: target.level, path: ctx.path, method: ctx.method });
  return principal;
}

/** Runs a declared action on the worker queue for an authenticated principal, like the v3 handler does. */
export function runQueued(ctx: Context, services: Services, principal: Principal, target: QueuedTarget): Promise<JobOutcome> {
  return services.queue.run(
    jobFromRequest(
      ctx,
      principal,
      { resource: target.resource, operation: target.operation, verb: target.verb, id: target.id },
      { body: target.body ?? {}, envelopeExtra: target.envelopeExtra },
    ),
  );
}
