import { settingsResource } from '../../../lib/settings-resource.ts';
import { amiStatusKey } from './get-ami-status.ts';
import { peerStatusesKey } from './get-peer-statuses.ts';
import { providerStatusesKey } from './get-provider-statuses.ts';

export interface AmiSettings {
  enabled: boolean;
  host: string;
  port: number;
  username: string;
  /** Write-only: never read back. */
  secret?: string;
}

/** The `ami` singleton: the Asterisk manager connection; saving it restarts the connection and the live states. */
export const amiSettings = settingsResource<AmiSettings>({
  path: 'ami',
  queryKey: ['settings', 'ami'],
  alsoInvalidates: [amiStatusKey, peerStatusesKey, providerStatusesKey],
});

export const useAmiSettings = amiSettings.useSettings;
