import type Router from '@koa/router';
import type { Context } from 'koa';
import { authenticate } from '../auth/authenticate.ts';
import { authorize } from '../auth/authorize.ts';
import { badRequest } from '../wire/errors.ts';
import { jobFromRequest } from '../http/job-input.ts';
import { sendOutcome } from '../http/v3-handler.ts';
import { verbOf } from '../http/v3-operation.ts';
import { LEGACY_EXTRA } from './legacy-envelope.ts';
import type { Services } from '../services.ts';
import type { LegacyModule } from '../modules/install.ts';
import { ACTION_NAME } from '../modules/validate.ts';

/** Where a v2 route is served. */
export const v2RoutePath = (slug: string, action: string) => `/pbxcore/api/${slug}/${action}`;
/** Where a v1 module's callback is served (`:action` is any action name). */
export const v1RoutePath = (name: string) => `/pbxcore/api/modules/${name}/:action`;

/**
 * Registers the v1 and v2 module routes. Each request goes through the same chain as v3:
 * public check, authentication, permission check, then the worker pool.
 */
export function registerModuleRoutes(router: Router, services: Services, legacy: readonly LegacyModule[]): void {
  for (const module of legacy) {
    const { entry, declaration } = module;
    if (entry.style === 'v2') {
      for (const [action, method] of Object.entries(declaration.customMethods ?? {})) {
        // @koa/router answers HEAD wherever GET is registered.
        router.register(v2RoutePath(entry.slug, action), method.verbs, (ctx: Context) => serve(ctx, services, module, action));
      }
    } else {
      router.register(v1RoutePath(entry.name), ['GET', 'POST'], (ctx: Context) =>
        serve(ctx, services, module, String((ctx.params as Record<string, string>).action)),
      );
    }
  }
}

async function serve(ctx: Context, services: Services, module: LegacyModule, action: string): Promise<void> {
  const verb = verbOf(ctx.method)!;
  const method = Object.hasOwn(module.declaration.customMethods ?? {}, action) ? module.declaration.customMethods![action] : undefined;
  const principal = await authenticate(services, ctx, { isPublic: method?.public === true });
  if (!ACTION_NAME.test(action)) throw badRequest(`Malformed action name "${action.slice(0, 100)}".`);
  authorize(principal, {
    declaration: module.declaration,
    level: method?.level ?? (verb === 'GET' ? 'READ' : 'WRITE'),
    path: ctx.path,
    method: ctx.method,
  });
  const target = { resource: module.declaration.name, operation: action, verb };
  const outcome = await services.queue.run(jobFromRequest(ctx, principal, target, { envelopeExtra: LEGACY_EXTRA }));
  await sendOutcome(ctx, services, outcome, action, module.entry.name, LEGACY_EXTRA);
}
