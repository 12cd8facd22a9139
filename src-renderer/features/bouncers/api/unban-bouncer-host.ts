import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { bouncerStatusKey } from './get-bouncer-status.ts';

/** firewall:unbanIp for a refused bouncer host, so it is served at its next poll. */
export const unbanBouncerHost = (ip: string) => api.post<Answer<'firewall.unbanIp'>>('firewall:unbanIp', { ip });

// The bans feature's lists are keyed under 'bans'; refresh them without importing that feature.
export const useUnbanBouncerHost = () => useRefreshingMutation(unbanBouncerHost, [bouncerStatusKey, ['bans']]);
