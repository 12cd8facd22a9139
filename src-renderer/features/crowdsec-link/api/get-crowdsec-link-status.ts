import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export const crowdsecLinkStatusKey = ['crowdsec-link', 'status'] as const;

/** crowdsec-link:getStatus: connected, last push and pull, queue length, last error. */
export const getCrowdsecLinkStatus = () => callOperation('crowdsec-link.getStatus');

export const useCrowdsecLinkStatus = polledQuery(crowdsecLinkStatusKey, getCrowdsecLinkStatus, 5_000);
