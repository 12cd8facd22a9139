import type { Item } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

/** An extension's live state; extra fields are shown when the server sends them. */
export type PeerStatus = Item<'sip.getPeersStatuses'>;

export const peerStatusesKey = ['peers', 'extensions'] as const;

/** sip:getPeersStatuses: every extension with its live state. */
export const getPeerStatuses = () => callOperation('sip.getPeersStatuses');

export const usePeerStatuses = polledQuery(peerStatusesKey, getPeerStatuses, 5_000);
