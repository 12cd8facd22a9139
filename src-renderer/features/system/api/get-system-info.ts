import type { Answer } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export type SystemInfo = Answer<'system.getInfo'>;

export const systemInfoKey = ['system', 'info'] as const;

/** system:getInfo: version, uptime, this host's addresses and the bouncer api_url for each. */
export const getSystemInfo = () => callOperation('system.getInfo');

export const useSystemInfo = polledQuery(systemInfoKey, getSystemInfo, 30_000);
