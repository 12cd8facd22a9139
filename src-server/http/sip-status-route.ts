import type Router from '@koa/router';
import { sendOutcome } from './v3-handler.ts';
import { authenticateFor, runQueued } from '../legacy/queued-action.ts';
import type { Services } from '../services.ts';
import type { PeerMonitor } from '../peers/peer-monitor.ts';

const ID_PATTERN = /^[^/:]{1,64}$/;

/**
 * `sip/{id}:getStatus` with an on-demand refresh: after authentication, the web thread asks
 * Asterisk for this peer's detail (bounded wait, skipped while Asterisk is down), then the action
 * runs on the queue like any v3 request and reads the fresh row.
 */
export function sipStatusRoute(router: Router, services: Services, monitor: PeerMonitor): void {
  router.all('/pbxcore/api/v3/sip/:id\\:getStatus', async (ctx, next) => {
    const id = ctx.params.id ?? '';
    // Anything unusual (ids with ':' or odd verbs) is left to the generic grammar and its errors.
    if (!ID_PATTERN.test(id) || !['GET', 'HEAD', 'POST'].includes(ctx.method)) return next();
    const principal = await authenticateFor(ctx, services, { resource: 'sip', level: 'READ' });
    await monitor.refreshEndpoint(id);
    const outcome = await runQueued(ctx, services, principal, { resource: 'sip', operation: 'getStatus', verb: ctx.method === 'POST' ? 'POST' : 'GET', id, level: 'READ' });
    await sendOutcome(ctx, services, outcome, 'getStatus', 'SIPStackProcessor');
  });
}
