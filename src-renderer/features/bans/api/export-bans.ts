import { api } from '../../../lib/api-client.ts';
import type { BanListFormat } from './import-bans.ts';

export interface BanExport {
  format: BanListFormat;
  source: 'manual' | 'all';
  count: number;
  content: string;
}

/** firewall:exportBans: the bans in force as a list firewall:importBans reads back. Fetched on demand, never cached. */
export const exportBans = (format: BanListFormat, source: 'manual' | 'all') =>
  api.get<BanExport>('firewall:exportBans', { format, source });
