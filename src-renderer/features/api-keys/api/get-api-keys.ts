import { listOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export const apiKeysKey = ['api-keys', 'list'] as const;

/** GET api-keys: every key with its last use (the key itself is never returned). */
export const getApiKeys = async () => (await listOperation('api-keys.getList', { query: { limit: 1000 } })).items;

export const useApiKeys = polledQuery(apiKeysKey, getApiKeys, 30_000);
