import type { Answer } from '#shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';

export type BanHistoryPoint = Answer<'firewall.getBanHistory'>['points'][number];

/** Every history range shares this prefix, so one invalidation refreshes them all. */
export const banHistoryKey = ['bans', 'history'] as const;
const banHistoryRangeKey = (minutes: number) => [...banHistoryKey, minutes] as const;

/** firewall:getBanHistory: bans started per category, one point per minute over the last `minutes`. */
export const getBanHistory = async (minutes: number) => {
  return (await callOperation('firewall.getBanHistory', { query: { minutes } })).points;
};

export const banHistoryQueryOptions = (minutes: number) =>
  queryOptions({
    queryKey: banHistoryRangeKey(minutes),
    queryFn: () => getBanHistory(minutes),
    refetchInterval: 60_000,
  });

export const useBanHistory = (minutes = 60) => useQuery(banHistoryQueryOptions(minutes));
