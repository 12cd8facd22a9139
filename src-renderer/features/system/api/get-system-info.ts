import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface SystemInfo {
  version: string;
  uptimeSeconds: number;
  addresses: string[];
  httpPort: number;
  httpsPort: number | null;
  bouncerApiUrls: string[];
}

export const systemInfoKey = ['system', 'info'] as const;

/** system:getInfo: version, uptime, this host's addresses and the bouncer api_url for each. */
export const getSystemInfo = () => api.get<SystemInfo>('system:getInfo');

export const systemInfoQueryOptions = () =>
  queryOptions({ queryKey: systemInfoKey, queryFn: getSystemInfo, refetchInterval: 30_000 });

export const useSystemInfo = () => useQuery(systemInfoQueryOptions());
