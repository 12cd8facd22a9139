import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface AuthStatus {
  adminPasswordSet: boolean;
  viaLocalhost: boolean;
}

export const authStatusKey = ['auth', 'status'] as const;

/** Public: tells whether this browser reaches the server over loopback, and whether a password exists. */
export const getAuthStatus = () => api.get<AuthStatus>('auth:status', undefined, { anonymous: true, quiet: true });

export const authStatusQueryOptions = () =>
  queryOptions({ queryKey: authStatusKey, queryFn: getAuthStatus, staleTime: 60_000 });

export const useAuthStatus = () => useQuery(authStatusQueryOptions());
