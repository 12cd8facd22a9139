import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';

export const authStatusKey = ['auth', 'status'] as const;

/** Public: tells whether this browser reaches the server over loopback, and whether a password exists. */
export const getAuthStatus = () => callOperation('auth.status', { anonymous: true, quiet: true });

export const authStatusQueryOptions = () =>
  queryOptions({ queryKey: authStatusKey, queryFn: getAuthStatus, staleTime: 60_000 });

export const useAuthStatus = () => useQuery(authStatusQueryOptions());
