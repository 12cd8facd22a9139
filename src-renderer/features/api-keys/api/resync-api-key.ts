import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey } from './types.ts';

/**
 * POST api-keys/{id}:resync: the key's bouncer gets everything it should hold at its next poll, and
 * its router's next feed fetch is the whole list (for a firewall that lost its set).
 */
export const resyncApiKey = (key: ApiKey) => callOperation('api-keys.resync', { path: { id: key.id } });

export const useResyncApiKey = () => useRefreshingMutation(resyncApiKey, [apiKeysKey]);
