import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const effectiveWhitelistKey = ['whitelist', 'effective'] as const;

/** One entry as text, whatever shape the server gives it (a string, or an object naming the address). */
export function whitelistEntryText(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object') {
    const o = entry as Record<string, unknown>;
    const value = o.value ?? o.ip ?? o.cidr ?? o.network ?? o.permit;
    if (typeof value === 'string') return value;
  }
  return JSON.stringify(entry);
}

/** firewall:getWhitelist: exactly the list bouncers get from /v1/whitelist. */
export const getEffectiveWhitelist = async () => {
  const data = await api.get<unknown[]>('firewall:getWhitelist');
  return Array.isArray(data) ? data : [];
};

export const effectiveWhitelistQueryOptions = () =>
  queryOptions({ queryKey: effectiveWhitelistKey, queryFn: getEffectiveWhitelist, refetchInterval: 30_000 });

export const useEffectiveWhitelist = () => useQuery(effectiveWhitelistQueryOptions());
