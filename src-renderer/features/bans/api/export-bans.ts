import type { Answer, Query } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import type { QueryFilter } from '../../../lib/query-filter.ts';
import type { BanListFormat } from './import-bans.ts';

export type BanExport = Answer<'firewall.exportBans'>;

/** firewall:exportBans: the bans in force as a list firewall:importBans reads back. Fetched on demand, never cached. */
export const exportBans = (format: BanListFormat, source: 'manual' | 'all') => {
  const query: QueryFilter<Query<'firewall.exportBans'>, 'format' | 'source'> = { format, source };
  return api.get<BanExport>('firewall:exportBans', query);
};
