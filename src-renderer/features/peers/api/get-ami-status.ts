import type { Answer } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type AmiStatus = Answer<'ami.getStatus'>;

export const amiStatusKey = ['ami', 'status'] as const;

/** ami:getStatus: whether the Asterisk manager connection is up. */
export const getAmiStatus = () => api.get<AmiStatus>('ami:getStatus');

export const amiStatusQueryOptions = () =>
  queryOptions({ queryKey: amiStatusKey, queryFn: getAmiStatus, refetchInterval: 5_000 });

export const useAmiStatus = () => useQuery(amiStatusQueryOptions());
