import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export const effectiveWhitelistKey = ['whitelist', 'effective'] as const;

/** firewall:getWhitelist: exactly the list bouncers get from /v1/whitelist. */
export const getEffectiveWhitelist = async () => {
  const data = await api.get<Answer<'firewall.getWhitelist'>>('firewall:getWhitelist');
  return Array.isArray(data) ? data : [];
};

export const useEffectiveWhitelist = polledQuery(effectiveWhitelistKey, getEffectiveWhitelist, 30_000);
