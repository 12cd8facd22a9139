import type { Item } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type BannedIp = Item<'firewall.getBannedIps'>;
/** How far a published decision reached: how many of the active bouncer keys were sent it, and which. */
export type Delivery = NonNullable<BannedIp['delivery']>;

export const bannedIpsKey = ['bans', 'active'] as const;

/**
 * firewall:getBannedIps: every active ban with its category and time left. `pagination.total`
 * counts every ban in force, upstream included: the upstream total is it minus this PBX's own.
 */
export const getBannedIps = async () => {
  const { data, pagination } = await apiRequest<BannedIp[]>('firewall:getBannedIps');
  const bans = Array.isArray(data) ? data : [];
  const own = bans.filter((ban) => !ban.upstream).length;
  const listedUpstream = bans.length - own;
  return { bans, upstreamTotal: Math.max(listedUpstream, (pagination?.total ?? bans.length) - own) };
};

/** What the Bans page reads of the answer: the listed bans (at most 1,000 upstream), and the upstream total. */
export type BannedIpList = Awaited<ReturnType<typeof getBannedIps>>;

export const bannedIpsQueryOptions = () =>
  queryOptions({ queryKey: bannedIpsKey, queryFn: getBannedIps, refetchInterval: 10_000 });

export const useBannedIps = () => useQuery({ ...bannedIpsQueryOptions(), select: (list) => list.bans });

/** How many upstream decisions this PBX enforces (the same request as the list). */
export const useUpstreamBanTotal = () =>
  useQuery({ ...bannedIpsQueryOptions(), select: (list) => list.upstreamTotal }).data ?? 0;
