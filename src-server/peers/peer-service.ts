import { AMI_SETTINGS_KEY } from './ami-settings-schema.ts';
import { PeerMonitor, type MonitorDeps } from './peer-monitor.ts';

/** The running AMI monitor and how to stop it. */
export interface PeerService {
  monitor: PeerMonitor;
  stop(): Promise<void>;
}

/**
 * Starts the AMI monitor from the `ami` settings and keeps it current: it reconnects when the
 * settings change and refreshes at once when extensions or providers are added or renamed.
 */
export async function startPeerService(deps: MonitorDeps): Promise<PeerService> {
  const monitor = new PeerMonitor(deps);
  await monitor.applySettings();
  const unsubscribe = deps.bus.on('resource-changed', ({ resource }) => {
    if (resource === AMI_SETTINGS_KEY) void monitor.applySettings();
    // New or renamed extensions and providers get their state without waiting for the next cycle.
    else if (resource === 'extensions' || resource === 'providers') void monitor.refresh();
  });
  return {
    monitor,
    async stop() {
      unsubscribe();
      await monitor.stop();
    },
  };
}
