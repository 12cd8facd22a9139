import { queryOptions, useQuery } from '@tanstack/react-query';
import { listOperation } from '../../../lib/api-client.ts';

export const networkFiltersKey = ['network-filters', 'list'] as const;

/** GET firewall: every network filter (they are few; one page of up to 1000). */
export const getNetworkFilters = async () =>
  (await listOperation('firewall.getList', { query: { limit: 1000 } })).items;

export const networkFiltersQueryOptions = () =>
  queryOptions({ queryKey: networkFiltersKey, queryFn: getNetworkFilters });

export const useNetworkFilters = () => useQuery(networkFiltersQueryOptions());
