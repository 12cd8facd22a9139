import type { Body, RecordOf } from '#shared/contract/types.ts';
import { settingsResource } from '../../../lib/settings-resource.ts';
import { amiStatusKey } from './get-ami-status.ts';
import { peerStatusesKey } from './get-peer-statuses.ts';
import { providerStatusesKey } from './get-provider-statuses.ts';

/** The settings as read, and the write-only secret the form may send. */
export type AmiSettings = RecordOf<'Ami'> & Pick<Body<'ami.patch'>, 'secret'>;

/** The `ami` singleton: the Asterisk manager connection; saving it restarts the connection and the live states. */
export const amiSettings = settingsResource({
  resource: 'ami',
  queryKey: ['settings', 'ami'],
  alsoInvalidates: [amiStatusKey, peerStatusesKey, providerStatusesKey],
});

export const useAmiSettings = amiSettings.useSettings;
