import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { bouncerStatusKey } from './get-bouncer-status.ts';

/** firewall:unbanIp for a refused bouncer host, so it is served at its next poll. */
export const unbanBouncerHost = (ip: string) => callOperation('firewall.unbanIp', { body: { ip } });

// The bans feature's lists are keyed under 'bans'; refresh them without importing that feature.
export const useUnbanBouncerHost = () => useRefreshingMutation(unbanBouncerHost, [bouncerStatusKey, ['bans']]);
