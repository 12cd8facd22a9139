import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { settingsResource } from '../../../lib/settings-resource.ts';
import { certificateKey } from './get-certificate.ts';
import { systemInfoKey } from './get-system-info.ts';

export interface HttpsSettings {
  enabled: boolean;
  port: number;
  /** PEM files of an own certificate; empty uses the generated self-signed one. */
  certificatePath: string;
  privateKeyPath: string;
}

/** The `https` singleton: whether the HTTPS listener runs, on which port, with which certificate. */
export const httpsSettings = settingsResource<HttpsSettings>({
  path: 'https',
  queryKey: ['settings', 'https'],
  alsoInvalidates: [certificateKey, systemInfoKey],
});

/** https:renewCertificate: a new self-signed key pair, or the configured files read again, applied live. */
export function useRenewCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ renewals: number }>('https:renewCertificate'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKey }),
  });
}
