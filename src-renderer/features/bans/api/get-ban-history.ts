import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface BanHistoryPoint {
  t: string | number;
  sip: number;
  http: number;
  ami: number;
  iax: number;
}

export const banHistoryKey = ['bans', 'history'] as const;

/** firewall:getBanHistory: active bans per category, one point per minute. */
export const getBanHistory = async () => (await api.get<{ points?: BanHistoryPoint[] }>('firewall:getBanHistory'))?.points ?? [];

export const banHistoryQueryOptions = () => queryOptions({ queryKey: banHistoryKey, queryFn: getBanHistory, refetchInterval: 60_000 });

export const useBanHistory = () => useQuery(banHistoryQueryOptions());
