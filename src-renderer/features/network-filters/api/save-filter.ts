import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { networkFiltersKey } from './get-filters.ts';
import type { NetworkFilterBody } from './types.ts';

/** POST firewall (create) or PUT firewall/{id} (full update). Errors are shown inline by the form. */
export const saveNetworkFilter = ({ id, input }: { id?: number; input: NetworkFilterBody }) =>
  id === undefined
    ? callOperation('firewall.create', { body: input, quiet: true })
    : callOperation('firewall.update', { path: { id }, body: input, quiet: true });

export const useSaveNetworkFilter = () =>
  useRefreshingMutation(saveNetworkFilter, [networkFiltersKey], { waitForRefresh: true });

/**
 * A filter made in one step outside the filter form (a blocked network, a bouncer host's binding):
 * neither a newer-IP block nor the local network, and every service either granted or not.
 */
export const quickFilter = (
  rule: Pick<NetworkFilterBody, 'permit' | 'deny' | 'description'>,
  grantServices: boolean,
): NetworkFilterBody => ({
  ...rule,
  newer_block_ip: false,
  local_network: false,
  currentRules: { SIP: grantServices, WEB: grantServices, AMI: grantServices, IAX: grantServices },
});
