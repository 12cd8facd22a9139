import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';

export const effectiveWhitelistKey = ['whitelist', 'effective'] as const;

/** firewall:getWhitelist: exactly the list bouncers get from /v1/whitelist. */
export const getEffectiveWhitelist = async () => {
  const data = await api.get<Answer<'firewall.getWhitelist'>>('firewall:getWhitelist');
  return Array.isArray(data) ? data : [];
};

export const effectiveWhitelistQueryOptions = () =>
  queryOptions({ queryKey: effectiveWhitelistKey, queryFn: getEffectiveWhitelist, refetchInterval: 30_000 });

export const useEffectiveWhitelist = () => useQuery(effectiveWhitelistQueryOptions());
