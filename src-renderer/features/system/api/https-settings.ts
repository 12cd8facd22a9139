import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { certificateKey } from './get-certificate.ts';
import { systemInfoKey } from './get-system-info.ts';

export interface HttpsSettings {
  enabled: boolean;
  port: number;
  /** PEM files of an own certificate; empty uses the generated self-signed one. */
  certificatePath: string;
  privateKeyPath: string;
}

export const httpsSettingsKey = ['settings', 'https'] as const;

/** The `https` singleton: whether the HTTPS listener runs, and on which port. */
export const getHttpsSettings = () => api.get<HttpsSettings>('https');

export const httpsSettingsQueryOptions = () => queryOptions({ queryKey: httpsSettingsKey, queryFn: getHttpsSettings });

export const useHttpsSettings = () => useQuery(httpsSettingsQueryOptions());

export const updateHttpsSettings = (input: HttpsSettings) => api.patch<HttpsSettings>('https', input, { quiet: true });

export const useUpdateHttpsSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHttpsSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(httpsSettingsKey, saved);
      void queryClient.invalidateQueries({ queryKey: certificateKey });
      void queryClient.invalidateQueries({ queryKey: systemInfoKey });
    },
  });
};
