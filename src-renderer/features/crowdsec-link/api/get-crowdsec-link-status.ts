import type { Answer } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export type CrowdsecLinkStatus = Answer<'crowdsec-link.getStatus'>;

export const crowdsecLinkStatusKey = ['crowdsec-link', 'status'] as const;

/** crowdsec-link:getStatus: connected, last push and pull, queue length, last error. */
export const getCrowdsecLinkStatus = () => api.get<CrowdsecLinkStatus>('crowdsec-link:getStatus');

export const useCrowdsecLinkStatus = polledQuery(crowdsecLinkStatusKey, getCrowdsecLinkStatus, 5_000);
