import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { BanService } from './categories.ts';

/** How far a published decision reached: how many of the active bouncer keys were sent it, and which. */
export interface Delivery {
  served: number;
  of: number;
  keys: Array<{ keyId: number; description: string }>;
}

export interface BannedIp {
  /** An address, or the CIDR of a manual range ban. */
  ip: string;
  category: string;
  reason?: string;
  /** Null for an upstream decision: the LAPI does not say when it started. */
  bannedAt: string | number | null;
  expiresAt: string | number;
  /** Null for a permanent manual ban. */
  secondsLeft: number | null;
  /** Who banned it: "fail2ban" for automatic bans, the user or API key for manual ones. */
  bannedBy?: string;
  /** Manual bans: the services of this server that refuse it (null: all). */
  services?: BanService[] | null;
  permanent?: boolean;
  /** Automatic bans: the rank among this source's bans in its category ("3rd ban"). */
  banNumber?: number;
  delivery?: Delivery;
  /** An upstream CrowdSec LAPI decision (category `upstream`): lifted on the LAPI, or ignored here by whitelisting. */
  upstream?: { origin: string; scenario: string; liftable: boolean };
}

export const bannedIpsKey = ['bans', 'active'] as const;

/** firewall:getBannedIps: every active ban with its category and time left. */
export const getBannedIps = async () => {
  const data = await api.get<BannedIp[] | { items?: BannedIp[] }>('firewall:getBannedIps');
  return Array.isArray(data) ? data : (data?.items ?? []);
};

export const bannedIpsQueryOptions = () =>
  queryOptions({ queryKey: bannedIpsKey, queryFn: getBannedIps, refetchInterval: 10_000 });

export const useBannedIps = () => useQuery(bannedIpsQueryOptions());
