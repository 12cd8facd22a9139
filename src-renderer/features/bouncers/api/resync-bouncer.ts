import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { bouncerStatusKey } from './get-bouncer-status.ts';

/** api-keys:resync for a bouncer's key: everything again at its next poll, the whole list at its router's next fetch. */
export const resyncBouncer = (keyId: number) => callOperation('api-keys.resync', { path: { id: keyId } });

export const useResyncBouncer = () => useRefreshingMutation(resyncBouncer, [bouncerStatusKey]);
