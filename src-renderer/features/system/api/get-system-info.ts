import type { Answer } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type SystemInfo = Answer<'system.getInfo'>;

export const systemInfoKey = ['system', 'info'] as const;

/** system:getInfo: version, uptime, this host's addresses and the bouncer api_url for each. */
export const getSystemInfo = () => api.get<SystemInfo>('system:getInfo');

export const systemInfoQueryOptions = () =>
  queryOptions({ queryKey: systemInfoKey, queryFn: getSystemInfo, refetchInterval: 30_000 });

export const useSystemInfo = () => useQuery(systemInfoQueryOptions());
