import type { Answer, Item, Query } from '#shared/contract/types.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { filterQuery, type QueryFilter } from '../../../lib/query-filter.ts';
import { getLogPage, useLogPage } from '../../../lib/query-hooks.ts';

export type BannedIp = Item<'firewall.getBannedIps'>;
/** How far a published decision reached: how many of the active bouncer keys were sent it, and which. */
export type Delivery = NonNullable<BannedIp['delivery']>;
/** How many bans in force match, per category (upstream apart), and when the newest own ban started. */
export type BanCounts = Answer<'firewall.getBanCounts'>;

/** The Bans screen's filter: search and category ('' for any), and the page. */
export type BannedIpsFilter = QueryFilter<Query<'firewall.getBannedIps'>, 'search' | 'category' | 'limit' | 'offset'>;

/** Every page, filter and count of the active bans shares this prefix, so a ban or an unban refreshes them all. */
export const bannedIpsKey = ['bans', 'active'] as const;
/** The pages only (an unban drops its rows from them at once). */
export const bannedIpsPageKey = [...bannedIpsKey, 'page'] as const;

/** One page of the active bans and how many match over every page. */
export type BannedIpsPage = { rows: BannedIp[]; total: number };

/**
 * firewall:getBannedIps: one page of the bans in force (this PBX's own newest first, then the
 * upstream LAPI's), searched and filtered on the server. A 100,000-ban list is never read whole.
 */
export const getBannedIps = (filter: BannedIpsFilter): Promise<BannedIpsPage> =>
  getLogPage('firewall.getBannedIps', filterQuery(filter));

/** Refreshed every 10 s, like the countdowns it feeds. */
export const useBannedIps = (filter: BannedIpsFilter) => useLogPage(bannedIpsPageKey, filter, getBannedIps, 10_000);

/** firewall:getBanCounts: the counts of every category (with the search applied), without the rows. */
export const getBanCounts = (search: string) =>
  callOperation('firewall.getBanCounts', { query: filterQuery({ search }) });

export const useBanCounts = (search = '') =>
  useQuery({
    queryKey: [...bannedIpsKey, 'counts', search.trim()],
    queryFn: () => getBanCounts(search),
    refetchInterval: 10_000,
    placeholderData: keepPreviousData,
  });
