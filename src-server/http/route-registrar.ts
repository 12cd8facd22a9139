import type Router from '@koa/router';
import type { Services } from '../services.ts';

/**
 * The one shape of every registrar of routes outside the v3 grammar (`registerXRoutes` in http/ and
 * legacy/): it adds its routes to the router from the composed services, and returns how to end
 * what it holds open (the event streams), if anything. startup/routes.ts lists them in match order.
 */
export type RouteRegistrar = (router: Router, services: Services) => void | (() => void);
