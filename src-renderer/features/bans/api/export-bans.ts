import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import type { BanListFormat } from './import-bans.ts';

export type BanExport = Answer<'firewall.exportBans'>;

/** firewall:exportBans: the bans in force as a list firewall:importBans reads back. Fetched on demand, never cached. */
export const exportBans = (format: BanListFormat, source: 'manual' | 'all') =>
  api.get<BanExport>('firewall:exportBans', { format, source });
