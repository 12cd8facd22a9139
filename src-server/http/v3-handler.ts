import type { Context, Middleware, Next } from 'koa';
import type { ResourceDeclaration } from '../resource-kit/types.ts';
import type { Services } from '../services.ts';
import { HttpError, notFound } from '../wire/errors.ts';
import { parseV3Path, type V3Path } from '../wire/v3-path.ts';
import { authenticate, authorize, enqueue, pipeline, respond } from './pipeline.ts';
import { resolveOperation, verbOf, type ResolvedOperation } from './v3-operation.ts';

export const V3_PREFIX = '/pbxcore/api/v3/';

/** The v3 path as parsed once per request, or the grammar error to report after authentication. */
type V3Request =
  | {
      ok: true;
      path: V3Path;
      declaration: ResourceDeclaration;
      resolved: ResolvedOperation;
      verb: NonNullable<ReturnType<typeof verbOf>>;
    }
  | { ok: false; error: HttpError; resolved?: undefined };

const v3Of = (ctx: Context) => (ctx.state as { v3: V3Request }).v3;

/** Parses the path and resolves the declared operation once; a grammar error waits for authentication. */
function parseRequest(services: Services): Middleware {
  return async function parseV3Request(ctx: Context, next: Next) {
    let v3: V3Request;
    try {
      const path = parseV3Path(ctx.path.slice(V3_PREFIX.length));
      const definition = services.registry.get(path.resource);
      if (!definition) throw notFound(`Unknown resource "${path.resource}".`);
      const verb = verbOf(ctx.method);
      const resolved = resolveOperation(definition.declaration, path, verb);
      v3 = verb
        ? { ok: true, path, declaration: definition.declaration, resolved, verb }
        : { ok: false, error: notFound() };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      v3 = { ok: false, error };
    }
    (ctx.state as { v3: V3Request }).v3 = v3;
    await next();
  };
}

/** The parsed request, or its grammar error (thrown only once the caller is authenticated). */
function parsed(ctx: Context): Extract<V3Request, { ok: true }> {
  const v3 = v3Of(ctx);
  if (!v3.ok) throw v3.error;
  return v3;
}

/**
 * Serves the generic v3 grammar through the one pipeline: parse, authenticate (public, Bearer,
 * localhost), authorise, queue, respond. Grammar errors are reported after authentication so an
 * anonymous remote caller learns nothing but 401.
 */
export function v3Handler(services: Services): Middleware {
  return pipeline(
    parseRequest(services),
    authenticate(services, (ctx) => v3Of(ctx).resolved?.isPublic ?? false),
    authorize((ctx) => {
      const { declaration, resolved, path } = parsed(ctx);
      return { declaration, level: resolved.level, grantPath: `/api/v3/${path.resource}` };
    }),
    enqueue(services, (ctx) => {
      const { declaration, resolved, path, verb } = parsed(ctx);
      return {
        resource: path.resource,
        operation: resolved.operation,
        verb,
        id: path.id,
        processor: declaration.processor ?? declaration.name,
        allowAsync: true,
      };
    }),
    respond(services),
  );
}
