import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';
import type { ApiKey } from './types.ts';

export const apiKeysKey = ['api-keys', 'list'] as const;

/** GET api-keys: every key with its last use (the key itself is never returned). */
export const getApiKeys = async () => (await api.list<ApiKey>('api-keys', { limit: 1000 })).items;

export const useApiKeys = polledQuery(apiKeysKey, getApiKeys, 30_000);
