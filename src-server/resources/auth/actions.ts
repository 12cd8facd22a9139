import { failure } from '../results.ts';
import type { ActionHandler, ResourceActions } from '../types.ts';

// The auth feature answers these on the web thread before the generic grammar; a worker never runs them.
const servedByWebThread: ActionHandler = (ctx) => failure(500, `auth:${ctx.operation} is served by the web thread, not a worker.`);

export const authActions: ResourceActions = {
  custom: {
    login: servedByWebThread,
    refresh: servedByWebThread,
    logout: servedByWebThread,
    status: servedByWebThread,
    setPassword: servedByWebThread,
  },
};
