import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface GeneralSettings {
  APIQueueMaxLength: number;
  APIRequestTTL: number;
}

export const generalSettingsKey = ['settings', 'general'] as const;

/** The `general-settings` singleton: request queue limits. */
export const getGeneralSettings = () => api.get<GeneralSettings>('general-settings');

export const generalSettingsQueryOptions = () => queryOptions({ queryKey: generalSettingsKey, queryFn: getGeneralSettings });

export const useGeneralSettings = () => useQuery(generalSettingsQueryOptions());

export const updateGeneralSettings = (input: GeneralSettings) => api.patch<GeneralSettings>('general-settings', input, { quiet: true });

export const useUpdateGeneralSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateGeneralSettings, onSuccess: (saved) => queryClient.setQueryData(generalSettingsKey, saved) });
};
