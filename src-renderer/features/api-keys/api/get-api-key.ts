import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey } from './types.ts';

/** GET api-keys/{id}: one key with its state and its last use per source address. */
export const getApiKey = (id: ApiKey['id']) => callOperation('api-keys.getRecord', { path: { id } });

export const apiKeyQueryOptions = (id: ApiKey['id']) =>
  queryOptions({ queryKey: [...apiKeysKey, String(id)], queryFn: () => getApiKey(id), refetchInterval: 15_000 });

export const useApiKey = (id: ApiKey['id'] | null) =>
  useQuery({ ...apiKeyQueryOptions(id ?? 0), enabled: id !== null });
