import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface BouncerStatus {
  keyId: number | string;
  description: string;
  lastPollAt: string | number | null;
  lastPollIp: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
}

export const bouncerStatusKey = ['bouncers', 'status'] as const;

/** firewall:getBouncerStatus: each bouncer key's last poll. */
export const getBouncerStatus = async () => {
  const data = await api.get<BouncerStatus[] | { items?: BouncerStatus[] }>('firewall:getBouncerStatus');
  return Array.isArray(data) ? data : (data?.items ?? []);
};

export const bouncerStatusQueryOptions = () => queryOptions({ queryKey: bouncerStatusKey, queryFn: getBouncerStatus, refetchInterval: 5_000 });

export const useBouncerStatus = () => useQuery(bouncerStatusQueryOptions());
