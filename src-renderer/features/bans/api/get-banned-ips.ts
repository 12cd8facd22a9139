import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface BannedIp {
  ip: string;
  category: string;
  reason?: string;
  bannedAt: string | number;
  expiresAt: string | number;
  secondsLeft: number;
}

export const bannedIpsKey = ['bans', 'active'] as const;

/** firewall:getBannedIps: every active ban with its category and time left. */
export const getBannedIps = async () => {
  const data = await api.get<BannedIp[] | { items?: BannedIp[] }>('firewall:getBannedIps');
  return Array.isArray(data) ? data : (data?.items ?? []);
};

export const bannedIpsQueryOptions = () => queryOptions({ queryKey: bannedIpsKey, queryFn: getBannedIps, refetchInterval: 10_000 });

export const useBannedIps = () => useQuery(bannedIpsQueryOptions());
