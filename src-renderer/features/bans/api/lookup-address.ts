import type { Answer } from '#shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';

export type AddressLookup = Answer<'firewall.lookup'>;
/** One active decision that covers the address: a ban of it, a range ban holding it, or a network filter's deny entry. */
export type CoveringDecision = AddressLookup['decisions'][number];
/** A whitelist entry or trusted network that keeps the address from being banned. */
export type Protection = AddressLookup['protections'][number];

/** firewall:lookup: "Why is this address blocked?". Quiet: a malformed address's 400 shows under the field. */
export const lookupAddress = (ip: string) => {
  return callOperation('firewall.lookup', { query: { ip }, quiet: true });
};

/** Under 'bans': an unban or a new ban refreshes an answer on screen. */
export const addressLookupKey = (ip: string) => ['bans', 'lookup', ip] as const;

/** No retry: a 400 is the answer (shown under the field), not a failure to try again. */
export const addressLookupQueryOptions = (ip: string) =>
  queryOptions({
    queryKey: addressLookupKey(ip),
    queryFn: () => lookupAddress(ip),
    enabled: ip !== '',
    retry: false,
    staleTime: 0,
  });

/** The answer for the address asked about ('' until one is asked). */
export const useAddressLookup = (ip: string) => useQuery(addressLookupQueryOptions(ip));
