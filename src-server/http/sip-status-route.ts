import type Router from '@koa/router';
import type { Services } from '../services.ts';
import { authenticate, authorize, enqueue, pipeline, respond } from './pipeline.ts';

const ID_PATTERN = /^[^/:]{1,64}$/;

/**
 * `sip/{id}:getStatus` with an on-demand refresh: after authentication, the web thread asks
 * Asterisk for this peer's detail (bounded wait, skipped while Asterisk is down), then the action
 * runs on the queue like any v3 request and reads the fresh row.
 */
export function registerSipStatusRoutes(router: Router, services: Services): void {
  const monitor = services.peers;
  const sip = services.registry.get('sip');
  if (!sip) throw new Error('Resource sip is not registered.');
  const serve = pipeline(
    authenticate(services),
    authorize(() => ({ declaration: sip.declaration, level: 'READ' })),
    enqueue(services, async (ctx) => {
      const id = ctx.params.id!;
      await monitor.refreshEndpoint(id);
      // Legacy-style job: an empty body, as before this route joined the pipeline.
      return {
        resource: 'sip',
        operation: 'getStatus',
        verb: ctx.method === 'POST' ? 'POST' : 'GET',
        id,
        processor: 'SIPStackProcessor',
        body: {},
      };
    }),
    respond(services),
  );
  router.all('/pbxcore/api/v3/sip/:id\\:getStatus', async (ctx, next) => {
    const id = ctx.params.id ?? '';
    // Anything unusual (ids with ':' or odd verbs) is left to the generic grammar and its errors.
    if (!ID_PATTERN.test(id) || !['GET', 'HEAD', 'POST'].includes(ctx.method)) return next();
    await serve(ctx, async () => {});
  });
}
