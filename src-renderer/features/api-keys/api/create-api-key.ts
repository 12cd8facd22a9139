import type { Body } from '../../../../src-shared/contract/types.ts';
import { api, ApiError } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey, ApiKeyInput, IssuedKey } from './types.ts';

/**
 * POST api-keys: the server generates the key and returns it in this answer only (the record, plus the
 * write-only `key` this once; the document lists the record).
 */
export const createApiKey = async (input: ApiKeyInput): Promise<IssuedKey> => {
  const record = await api.post<ApiKey & Pick<Body<'api-keys.create'>, 'key'>>('api-keys', input, { quiet: true });
  if (!record?.key)
    throw new ApiError(500, ['The server did not return the new key. Delete the record and try again.']);
  const { key, ...rest } = record;
  return { key, record: rest };
};

export const useCreateApiKey = () => useRefreshingMutation(createApiKey, [apiKeysKey], { waitForRefresh: true });
