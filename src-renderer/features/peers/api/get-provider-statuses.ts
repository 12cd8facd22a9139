import type { Item } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

/** A provider's registration state. */
export type ProviderStatus = Item<'providers.getStatuses'>;

export const providerStatusesKey = ['peers', 'providers'] as const;

/** providers:getStatuses: each provider's registration state. */
export const getProviderStatuses = async () => {
  const data = await api.get<ProviderStatus[] | Record<string, ProviderStatus> | null>('providers:getStatuses');
  if (Array.isArray(data)) return data;
  return data && typeof data === 'object'
    ? Object.entries(data).map(([id, value]): ProviderStatus => ({ ...value, id: value.id ?? id }))
    : [];
};

export const useProviderStatuses = polledQuery(providerStatusesKey, getProviderStatuses, 5_000);
