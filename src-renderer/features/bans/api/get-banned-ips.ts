import type { Item } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export type BannedIp = Item<'firewall.getBannedIps'>;
/** How far a published decision reached: how many of the active bouncer keys were sent it, and which. */
export type Delivery = NonNullable<BannedIp['delivery']>;

export const bannedIpsKey = ['bans', 'active'] as const;

/** firewall:getBannedIps: every active ban with its category and time left. */
export const getBannedIps = async () => {
  const data = await api.get<BannedIp[] | { items?: BannedIp[] }>('firewall:getBannedIps');
  return Array.isArray(data) ? data : (data?.items ?? []);
};

export const useBannedIps = polledQuery(bannedIpsKey, getBannedIps, 10_000);
