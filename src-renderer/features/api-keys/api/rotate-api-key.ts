import { ApiError, callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey, IssuedKey } from './types.ts';

/**
 * POST api-keys/{id}:rotate: a new value for the same record (access, binding, state and bouncer
 * cursor stay). The old value stops working at once; the new one is in this answer only.
 */
export const rotateApiKey = async (key: ApiKey): Promise<IssuedKey> => {
  const answer = await callOperation('api-keys.rotate', { path: { id: key.id } });
  if (!answer?.key) throw new ApiError(500, ['The server did not return the new key. Rotate the key again.']);
  return answer;
};

export const useRotateApiKey = () => useRefreshingMutation(rotateApiKey, [apiKeysKey], { waitForRefresh: true });
