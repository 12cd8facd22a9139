import type { Item } from '../../../../src-shared/contract/types.ts';
import { getLogPage, useLogPage } from '../../../lib/query-hooks.ts';

/** One ban in the history: when it started, how it ended (or will), and who did what. */
export type BanLogEntry = Item<'firewall.getBanLog'>;
export type BanLogState = BanLogEntry['state'];

export interface BanLogFilter {
  search: string;
  /** '' for every category. */
  category: string;
  /** '' for every state. */
  state: '' | BanLogState;
  limit: number;
  offset: number;
}

/** Every page and filter of the history shares this prefix, so bans and unbans refresh them all. */
export const banLogKey = ['bans', 'log'] as const;

/** firewall:getBanLog: one page of the ban history, newest first, filtered on the server. */
export const getBanLog = (filter: BanLogFilter) =>
  getLogPage<BanLogEntry>('firewall:getBanLog', { ...filter, search: filter.search.trim() });

export const useBanLog = (filter: BanLogFilter) => useLogPage(banLogKey, filter, getBanLog);
