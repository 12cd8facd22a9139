import type { RecordOf } from '#shared/contract/types.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { settingsResource } from '../../../lib/settings-resource.ts';
import { certificateKey } from './get-certificate.ts';
import { systemInfoKey } from './get-system-info.ts';

export type HttpsSettings = RecordOf<'Https'>;

/** The `https` singleton: whether the HTTPS listener runs, on which port, with which certificate. */
export const httpsSettings = settingsResource({
  resource: 'https',
  queryKey: ['settings', 'https'],
  alsoInvalidates: [certificateKey, systemInfoKey],
});

/** https:renewCertificate: a new self-signed key pair, or the configured files read again, applied live. */
export function useRenewCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callOperation('https.renewCertificate'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKey }),
  });
}
