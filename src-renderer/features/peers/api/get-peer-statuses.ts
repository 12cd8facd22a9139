import type { Answer, Item } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

/** An extension's live state; extra fields are shown when the server sends them. */
export type PeerStatus = Item<'sip.getPeersStatuses'>;

export const peerStatusesKey = ['peers', 'extensions'] as const;

/** sip:getPeersStatuses: every extension with its live state. */
export const getPeerStatuses = async () => {
  const data = await api.get<Answer<'sip.getPeersStatuses'> | null>('sip:getPeersStatuses');
  return Array.isArray(data) ? data : [];
};

export const usePeerStatuses = polledQuery(peerStatusesKey, getPeerStatuses, 5_000);
