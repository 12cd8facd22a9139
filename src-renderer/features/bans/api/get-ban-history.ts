import type { Answer, Query } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { QueryFilter } from '../../../lib/query-filter.ts';

export type BanHistoryPoint = Answer<'firewall.getBanHistory'>['points'][number];

/** Every history range shares this prefix, so one invalidation refreshes them all. */
export const banHistoryKey = ['bans', 'history'] as const;
const banHistoryRangeKey = (minutes: number) => [...banHistoryKey, minutes] as const;

/** firewall:getBanHistory: bans started per category, one point per minute over the last `minutes`. */
export const getBanHistory = async (minutes: number) => {
  const query: QueryFilter<Query<'firewall.getBanHistory'>, 'minutes'> = { minutes };
  return (await api.get<Answer<'firewall.getBanHistory'>>('firewall:getBanHistory', query))?.points ?? [];
};

export const banHistoryQueryOptions = (minutes: number) =>
  queryOptions({
    queryKey: banHistoryRangeKey(minutes),
    queryFn: () => getBanHistory(minutes),
    refetchInterval: 60_000,
  });

export const useBanHistory = (minutes = 60) => useQuery(banHistoryQueryOptions(minutes));
