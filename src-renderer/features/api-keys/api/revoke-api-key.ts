import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey, IssuedKey } from './types.ts';

/**
 * Revokes a key by replacing it with one from api-keys:generateKey: the old key stops working at
 * once, and the replacement is shown once (or ignored, which leaves the record disabled).
 */
export const revokeApiKey = async (key: ApiKey): Promise<IssuedKey> => {
  const { key: replacement } = await api.post<{ key: string }>('api-keys:generateKey');
  const record = await api.patch<ApiKey>(`api-keys/${encodeURIComponent(String(key.id))}`, { description: key.description, key: replacement });
  return { key: replacement, record: record ?? null };
};

export const useRevokeApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeApiKey, onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }) });
};
