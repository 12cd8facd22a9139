import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api, ApiError } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey, IssuedKey } from './types.ts';

/**
 * POST api-keys/{id}:rotate: a new value for the same record (access, binding, state and bouncer
 * cursor stay). The old value stops working at once; the new one is in this answer only.
 */
export const rotateApiKey = async (key: ApiKey): Promise<IssuedKey> => {
  const answer = await api.post<Answer<'api-keys.rotate'>>(`api-keys/${encodeURIComponent(String(key.id))}:rotate`);
  if (!answer?.key) throw new ApiError(500, ['The server did not return the new key. Rotate the key again.']);
  return answer;
};

export const useRotateApiKey = () => useRefreshingMutation(rotateApiKey, [apiKeysKey], { waitForRefresh: true });
