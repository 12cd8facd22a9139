import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { BanService } from './categories.ts';

export type BanLogState = 'active' | 'expired' | 'lifted';

/** One ban in the history: when it started, how it ended (or will), and who did what. */
export interface BanLogEntry {
  id: number;
  ip: string;
  category: string;
  scenario: string;
  reason: string;
  services: BanService[] | null;
  bannedAt: string;
  bannedBy: string;
  /** When it ended or will end; null for a permanent ban still in force. */
  endsAt: string | null;
  state: BanLogState;
  liftedBy: string | null;
  /** The rank among this source's bans in its category (1 for the first). */
  banNumber?: number;
}

export interface BanLogFilter {
  search: string;
  /** '' for every category. */
  category: string;
  /** '' for every state. */
  state: '' | BanLogState;
  limit: number;
  offset: number;
}

/** Every page and filter of the history shares this prefix, so bans and unbans refresh them all. */
export const banLogKey = ['bans', 'log'] as const;

/** firewall:getBanLog: one page of the ban history, newest first, filtered on the server. */
export const getBanLog = async (filter: BanLogFilter) => {
  const { data, pagination } = await apiRequest<BanLogEntry[]>('firewall:getBanLog', {
    query: {
      search: filter.search.trim() || undefined,
      category: filter.category || undefined,
      state: filter.state || undefined,
      limit: filter.limit,
      offset: filter.offset,
    },
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
