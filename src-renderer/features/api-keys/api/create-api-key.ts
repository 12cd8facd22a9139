import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey, ApiKeyInput, IssuedKey } from './types.ts';

/** POST api-keys: the server generates the key and returns it in this answer only. */
export const createApiKey = async (input: ApiKeyInput): Promise<IssuedKey> => {
  const record = await api.post<ApiKey & { key?: string }>('api-keys', input, { quiet: true });
  if (!record?.key)
    throw new ApiError(500, ['The server did not return the new key. Delete the record and try again.']);
  const { key, ...rest } = record;
  return { key, record: rest };
};

export const useCreateApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
};
