import type { Answer } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type AuthStatus = Answer<'auth.status'>;

export const authStatusKey = ['auth', 'status'] as const;

/** Public: tells whether this browser reaches the server over loopback, and whether a password exists. */
export const getAuthStatus = () => api.get<AuthStatus>('auth:status', undefined, { anonymous: true, quiet: true });

export const authStatusQueryOptions = () =>
  queryOptions({ queryKey: authStatusKey, queryFn: getAuthStatus, staleTime: 60_000 });

export const useAuthStatus = () => useQuery(authStatusQueryOptions());
