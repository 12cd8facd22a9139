import type { Item, Query } from '../../../../src-shared/contract/types.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { filterQuery, type QueryFilter } from '../../../lib/query-filter.ts';

/** One ban in the history: when it started, how it ended (or will), and who did what. */
export type BanLogEntry = Item<'firewall.getBanLog'>;
export type BanLogState = BanLogEntry['state'];

/** The history screen's filter: search, category and state ('' for any), and the page. */
export type BanLogFilter = QueryFilter<
  Query<'firewall.getBanLog'>,
  'search' | 'category' | 'state' | 'limit' | 'offset'
>;

/** Every page and filter of the history shares this prefix, so bans and unbans refresh them all. */
export const banLogKey = ['bans', 'log'] as const;

/** firewall:getBanLog: one page of the ban history, newest first, filtered on the server. */
export const getBanLog = async (filter: BanLogFilter) => {
  const { data, pagination } = await apiRequest<BanLogEntry[]>('firewall:getBanLog', {
    query: filterQuery(filter),
  });
  const rows = Array.isArray(data) ? data : [];
  return { rows, total: pagination?.total ?? rows.length };
};

export const banLogQueryOptions = (filter: BanLogFilter) =>
  queryOptions({
    queryKey: [...banLogKey, filter],
    queryFn: () => getBanLog(filter),
    refetchInterval: 30_000,
    placeholderData: keepPreviousData,
  });

export const useBanLog = (filter: BanLogFilter) => useQuery(banLogQueryOptions(filter));
