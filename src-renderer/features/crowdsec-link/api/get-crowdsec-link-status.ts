import type { Answer } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type CrowdsecLinkStatus = Answer<'crowdsec-link.getStatus'>;

export const crowdsecLinkStatusKey = ['crowdsec-link', 'status'] as const;

/** crowdsec-link:getStatus: connected, last push and pull, queue length, last error. */
export const getCrowdsecLinkStatus = () => api.get<CrowdsecLinkStatus>('crowdsec-link:getStatus');

export const crowdsecLinkStatusQueryOptions = () =>
  queryOptions({ queryKey: crowdsecLinkStatusKey, queryFn: getCrowdsecLinkStatus, refetchInterval: 5_000 });

export const useCrowdsecLinkStatus = () => useQuery(crowdsecLinkStatusQueryOptions());
