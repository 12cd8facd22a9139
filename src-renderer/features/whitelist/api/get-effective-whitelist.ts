import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export const effectiveWhitelistKey = ['whitelist', 'effective'] as const;

/** firewall:getWhitelist: exactly the list bouncers get from /v1/whitelist. */
export const getEffectiveWhitelist = () => callOperation('firewall.getWhitelist');

export const useEffectiveWhitelist = polledQuery(effectiveWhitelistKey, getEffectiveWhitelist, 30_000);
