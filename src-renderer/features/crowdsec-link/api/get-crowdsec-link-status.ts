import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

interface DirectionStatus {
  enabled: boolean;
  state: 'off' | 'waiting' | 'ok' | 'error';
  lastOkAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

export interface CrowdsecLinkStatus {
  enabled: boolean;
  connected: boolean;
  state: 'off' | 'connecting' | 'connected' | 'error';
  queueLength: number;
  lastPushAt: string | null;
  lastPullAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  push: DirectionStatus & { sent: number; deleted: number; dropped: number };
  pull: DirectionStatus & { decisions: number; skipped: Record<string, number>; droppedAnswers: number };
}

export const crowdsecLinkStatusKey = ['crowdsec-link', 'status'] as const;

/** crowdsec-link:getStatus: connected, last push and pull, queue length, last error. */
export const getCrowdsecLinkStatus = () => api.get<CrowdsecLinkStatus>('crowdsec-link:getStatus');

export const crowdsecLinkStatusQueryOptions = () =>
  queryOptions({ queryKey: crowdsecLinkStatusKey, queryFn: getCrowdsecLinkStatus, refetchInterval: 5_000 });

export const useCrowdsecLinkStatus = () => useQuery(crowdsecLinkStatusQueryOptions());
