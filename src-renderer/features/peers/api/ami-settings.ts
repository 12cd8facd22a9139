import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
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

export const amiSettingsKey = ['settings', 'ami'] as const;

/** The `ami` singleton: the Asterisk manager connection. */
export const getAmiSettings = () => api.get<AmiSettings>('ami');

export const amiSettingsQueryOptions = () => queryOptions({ queryKey: amiSettingsKey, queryFn: getAmiSettings });

export const useAmiSettings = () => useQuery(amiSettingsQueryOptions());

export const updateAmiSettings = (input: AmiSettings) => api.patch<AmiSettings>('ami', input, { quiet: true });

export const useUpdateAmiSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAmiSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(amiSettingsKey, saved);
      for (const queryKey of [amiStatusKey, peerStatusesKey, providerStatusesKey]) void queryClient.invalidateQueries({ queryKey });
    },
  });
};
