import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { badRequest } from '../wire/errors.ts';
import { authenticate, authorize, enqueue, pipeline, respond } from '../http/pipeline.ts';
import { verbOf } from '../http/v3-operation.ts';
import { LEGACY_MEMBERS } from '../http/family-errors.ts';
import type { Services } from '../services.ts';
import type { LegacyModule } from '../modules/install.ts';
import { ACTION_NAME } from '../modules/validate.ts';

/** Where a v2 route is served. */
export const v2RoutePath = (slug: string, action: string) => `/pbxcore/api/${slug}/${action}`;
/** Where a v1 module's callback is served (`:action` is any action name). */
export const v1RoutePath = (name: string) => `/pbxcore/api/modules/${name}/:action`;

/**
 * Registers the v1 and v2 module routes. Each request goes through the one pipeline, like v3:
 * public check, authentication, permission check, then the worker pool.
 */
export function registerModuleRoutes(router: Router, services: Services): void {
  for (const module of services.modules.legacy) {
    const { entry, declaration } = module;
    if (entry.style === 'v2') {
      for (const [action, method] of Object.entries(declaration.customMethods ?? {})) {
        // @koa/router answers HEAD wherever GET is registered.
        router.register(
          v2RoutePath(entry.slug, action),
          method.verbs,
          moduleAction(services, module, () => action),
        );
      }
    } else {
      router.register(
        v1RoutePath(entry.name),
        ['GET', 'POST'],
        moduleAction(services, module, (ctx) => String((ctx.params as Record<string, string>).action)),
      );
    }
  }
}

/** The pipeline of one module's actions; `actionOf` names the action of a request. */
function moduleAction(services: Services, module: LegacyModule, actionOf: (ctx: Context) => string): Middleware {
  const methodOf = (ctx: Context) => {
    const action = actionOf(ctx);
    return Object.hasOwn(module.declaration.customMethods ?? {}, action)
      ? module.declaration.customMethods![action]
      : undefined;
  };
  return pipeline(
    authenticate(services, (ctx) => methodOf(ctx)?.public === true),
    authorize((ctx) => {
      const action = actionOf(ctx);
      if (!ACTION_NAME.test(action)) throw badRequest(`Malformed action name "${action.slice(0, 100)}".`);
      return {
        declaration: module.declaration,
        level: methodOf(ctx)?.level ?? (verbOf(ctx.method) === 'GET' ? 'READ' : 'WRITE'),
      };
    }),
    enqueue(services, (ctx) => ({
      resource: module.declaration.name,
      operation: actionOf(ctx),
      verb: verbOf(ctx.method)!,
      processor: module.entry.name,
      envelopeExtra: LEGACY_MEMBERS,
    })),
    respond(services),
  );
}
