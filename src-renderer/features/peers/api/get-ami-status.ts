import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface AmiStatus {
  enabled: boolean;
  connected: boolean;
  lastError: string | null;
  stateAgeSeconds: number | null;
}

export const amiStatusKey = ['ami', 'status'] as const;

/** ami:getStatus: whether the Asterisk manager connection is up. */
export const getAmiStatus = () => api.get<AmiStatus>('ami:getStatus');

export const amiStatusQueryOptions = () =>
  queryOptions({ queryKey: amiStatusKey, queryFn: getAmiStatus, refetchInterval: 5_000 });

export const useAmiStatus = () => useQuery(amiStatusQueryOptions());
