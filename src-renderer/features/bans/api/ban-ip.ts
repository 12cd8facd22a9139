import type { Body } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { banHistoryKey } from './get-ban-history.ts';
import { banLogKey } from './get-ban-log.ts';
import { bannedIpsKey } from './get-banned-ips.ts';

export type BanIpInput = Body<'firewall.banIp'>;

/** firewall:banIp: a manual ban, published to bouncers as pbx/manual (422s are shown under their fields). */
export const banIp = (input: BanIpInput) => callOperation('firewall.banIp', { body: input, quiet: true });

export const useBanIp = () => useRefreshingMutation(banIp, [bannedIpsKey, banHistoryKey, banLogKey]);
