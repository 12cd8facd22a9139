import { callOperation } from '../../../lib/api-client.ts';
import type { BanListFormat } from './import-bans.ts';

/** firewall:exportBans: the bans in force as a list firewall:importBans reads back. Fetched on demand, never cached. */
export const exportBans = (format: BanListFormat, source: 'manual' | 'all') => {
  return callOperation('firewall.exportBans', { query: { format, source } });
};
