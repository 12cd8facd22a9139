import type { Item } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

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

export const providerStatusesQueryOptions = () =>
  queryOptions({ queryKey: providerStatusesKey, queryFn: getProviderStatuses, refetchInterval: 5_000 });

export const useProviderStatuses = () => useQuery(providerStatusesQueryOptions());
