import { registerAuthRoutes } from '../http/auth-routes.ts';
import { registerBlocklistRoutes } from '../http/blocklist-route.ts';
import { registerBouncerRoutes } from '../http/bouncer-routes.ts';
import { registerEventsRoutes } from '../http/events-route.ts';
import type { RouteRegistrar } from '../http/route-registrar.ts';
import { registerSipStatusRoutes } from '../http/sip-status-route.ts';
import { registerModuleRoutes } from '../legacy/module-routes.ts';
import { registerSessionStartRoutes } from '../legacy/session-start.ts';
import { registerLegacySipRoutes } from '../legacy/sip-routes.ts';

/**
 * Every route outside the v3 grammar, in match order; all queued ones run the one pipeline
 * (http/pipeline.ts). The feed first: the export's catch-all after it would answer its path with 404.
 */
export const ROUTE_REGISTRARS: readonly RouteRegistrar[] = [
  registerBlocklistRoutes,
  registerBouncerRoutes,
  registerAuthRoutes,
  registerSessionStartRoutes,
  registerSipStatusRoutes,
  registerLegacySipRoutes,
  registerModuleRoutes,
  registerEventsRoutes,
];
