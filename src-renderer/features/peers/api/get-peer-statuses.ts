import type { Answer, Item } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** An extension's live state; extra fields are shown when the server sends them. */
export type PeerStatus = Item<'sip.getPeersStatuses'>;

export const peerStatusesKey = ['peers', 'extensions'] as const;

/** sip:getPeersStatuses: every extension with its live state. */
export const getPeerStatuses = async () => {
  const data = await api.get<Answer<'sip.getPeersStatuses'> | null>('sip:getPeersStatuses');
  return Array.isArray(data) ? data : [];
};

export const peerStatusesQueryOptions = () =>
  queryOptions({ queryKey: peerStatusesKey, queryFn: getPeerStatuses, refetchInterval: 5_000 });

export const usePeerStatuses = () => useQuery(peerStatusesQueryOptions());
