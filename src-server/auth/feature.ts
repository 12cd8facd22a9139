import type { Feature } from '../features.ts';
import { authRuntime } from './runtime.ts';
import { loginRoutes } from '../http/auth-routes.ts';
import { sessionStartRoute } from '../legacy/session-start.ts';
import { adminPasswordSet, ADMIN_LOGIN, setUserPassword } from './users.ts';

/**
 * Authentication: loads the JWT secret, applies PBX_ADMIN_PASSWORD while the `admin` account has
 * no password, and serves the auth endpoints that need cookies or the socket address.
 */
export const authFeature: Feature = {
  name: 'auth',
  async start(services) {
    authRuntime(services);
    const initial = services.config.adminPassword;
    if (initial) {
      // First start of `admin` (it has no password yet), whatever other accounts exist; later starts leave it alone.
      if (!adminPasswordSet(services.db)) {
        await setUserPassword(services.db, ADMIN_LOGIN, initial, 'admin', services.clock.now());
        services.logger.info('admin password set from PBX_ADMIN_PASSWORD');
      } else {
        services.logger.info('PBX_ADMIN_PASSWORD not applied: the admin account already has a password');
      }
    }
    return {
      routes(router) {
        loginRoutes(services, router);
        sessionStartRoute(services, router);
      },
    };
  },
};
