import type { Feature } from '../features.ts';
import { liveRouters } from '../http/live-routes.ts';
import { registerModuleRoutes } from '../legacy/module-routes.ts';

/**
 * Extension modules. Discovery and loading happen in createServer, before the registry and the
 * workers exist (both need the module files); this feature serves the v1 and v2 routes.
 */
export const modulesFeature: Feature = {
  name: 'modules',
  start(services) {
    return {
      routes(router) {
        liveRouters.set(services, router);
        registerModuleRoutes(router, services, services.modules?.legacy ?? []);
      },
    };
  },
};
