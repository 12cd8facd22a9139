import type { Feature } from '../features.ts';
import { authRuntime } from './runtime.ts';
import { loginRoutes } from './login-routes.ts';
import { sessionStartRoute } from './session-start.ts';
import { adminPasswordSet, ADMIN_LOGIN, setUserPassword } from './users.ts';

/**
 * Authentication: loads the JWT secret, applies PBX_ADMIN_PASSWORD when no admin password exists
 * yet, and serves the auth endpoints that need cookies or the socket address.
 */
export const authFeature: Feature = {
  name: 'auth',
  async start(services) {
    authRuntime(services);
    const initial = services.config.adminPassword;
    if (initial && !adminPasswordSet(services.db)) {
      await setUserPassword(services.db, ADMIN_LOGIN, initial, 'admin', services.clock.now());
      services.logger.info('admin password set from PBX_ADMIN_PASSWORD');
    }
    return {
      routes(router) {
        loginRoutes(services, router);
        sessionStartRoute(services, router);
      },
    };
  },
};
