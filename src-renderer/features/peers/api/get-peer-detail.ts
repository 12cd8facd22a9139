import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';

export const peerDetailKey = (id: string) => ['peers', 'detail', id] as const;

/** sip/{id}:getStatus: the contact details of one extension (all values are strings). */
export const getPeerDetail = (id: string) => callOperation('sip.getStatus.get', { path: { id }, quiet: true });

export const peerDetailQueryOptions = (id: string) =>
  queryOptions({ queryKey: peerDetailKey(id), queryFn: () => getPeerDetail(id), refetchInterval: 5_000 });

export const usePeerDetail = (id: string) => useQuery(peerDetailQueryOptions(id));
