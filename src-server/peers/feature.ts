import type { Feature } from '../features.ts';
import { legacySipRoutes } from '../legacy/sip-routes.ts';
import { AMI_SETTINGS_KEY } from '../resources/ami/declaration.ts';
import { PeerMonitor } from './peer-monitor.ts';
import { sipStatusRoute } from '../http/sip-status-route.ts';

/**
 * Peer status: the AMI monitor on the web thread (reconnecting when the `ami` settings change),
 * the on-demand `sip/{id}:getStatus` route and the legacy `/pbxcore/api/sip/*` endpoints.
 */
export const peersFeature: Feature = {
  name: 'peers',
  async start(services) {
    const monitor = new PeerMonitor(services);
    services.peers = monitor;
    await monitor.applySettings();
    const unsubscribe = services.bus.on('resource-changed', ({ resource }) => {
      if (resource === AMI_SETTINGS_KEY) void monitor.applySettings();
      // New or renamed extensions and providers get their state without waiting for the next cycle.
      else if (resource === 'extensions' || resource === 'providers') void monitor.refresh();
    });
    return {
      routes(router) {
        sipStatusRoute(router, services, monitor);
        legacySipRoutes(router, services, monitor);
      },
      async stop() {
        unsubscribe();
        await monitor.stop();
        services.peers = undefined;
      },
    };
  },
};
