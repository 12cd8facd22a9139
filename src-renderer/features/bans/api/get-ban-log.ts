import type { Item, Query } from '#shared/contract/types.ts';
import { filterQuery, type QueryFilter } from '../../../lib/query-filter.ts';
import { getLogPage, useLogPage } from '../../../lib/query-hooks.ts';

/** One ban in the history: when it started, how it ended (or will), and who did what. */
export type BanLogEntry = Item<'firewall.getBanLog'>;
export type BanLogState = BanLogEntry['state'];

/** The history screen's filter: search, category and state ('' for any), and the page. */
export type BanLogFilter = QueryFilter<
  Query<'firewall.getBanLog'>,
  'search' | 'category' | 'state' | 'limit' | 'offset'
>;

/** Every page and filter of the history shares this prefix, so bans and unbans refresh them all. */
export const banLogKey = ['bans', 'log'] as const;

/** firewall:getBanLog: one page of the ban history, newest first, filtered on the server. */
export const getBanLog = (filter: BanLogFilter) => getLogPage('firewall.getBanLog', filterQuery(filter));

export const useBanLog = (filter: BanLogFilter) => useLogPage(banLogKey, filter, getBanLog);
