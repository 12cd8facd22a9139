import { ApiError, callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKeyInput, IssuedKey } from './types.ts';

/** POST api-keys: the server generates the key and returns it in this answer only (the record plus `key`). */
export const createApiKey = async (input: ApiKeyInput): Promise<IssuedKey> => {
  const answer = await callOperation('api-keys.create', { body: input, quiet: true });
  if (!answer?.key)
    throw new ApiError(500, ['The server did not return the new key. Delete the record and try again.']);
  return { ...answer, key: answer.key };
};

export const useCreateApiKey = () => useRefreshingMutation(createApiKey, [apiKeysKey], { waitForRefresh: true });
