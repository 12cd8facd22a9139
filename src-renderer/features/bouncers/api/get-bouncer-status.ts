import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** One source address a key polled from (`key@ip`), with what the bouncer reports of itself. */
export interface BouncerHost {
  ip: string;
  firstSeen: string;
  lastSeen: string;
  polls: number;
  userAgent: string;
  type: string | null;
  name: string | null;
  version: string | null;
  os: string | null;
  /** What it reports it dropped, per origin and unit. */
  dropped: Record<string, Record<string, number>>;
  metricsAt: string | null;
}

/** The bouncer's state from its last attempt (the server decides: see firewall:getBouncerStatus). */
export type BouncerState = 'served' | 'refused' | 'silent' | 'never';

/** Why the key's last poll was refused, while that refusal is its last attempt. */
export interface BouncerRefusal {
  at: string;
  ip: string;
  code: 'disabled' | 'expired' | 'wrong-source' | 'not-allowed' | string;
  reason: string;
}

export interface BouncerStatus {
  keyId: number;
  description: string;
  state: BouncerState;
  refusal: BouncerRefusal | null;
  lastPollAt: string | null;
  lastPollIp: string | null;
  polls: number;
  lastNew: number;
  lastDeleted: number;
  hosts: BouncerHost[];
  /** Refusals from this key's hosts, or of this key from elsewhere. */
  refused: BouncerRejection[];
}

/** A source refused on the export this week, and whether a ban still locks it out. */
export interface BouncerRejection {
  ip: string;
  keyId: number | null;
  /** The refused key's name (null for an unknown or malformed key). */
  keyDescription: string | null;
  reason: string;
  firstAt: string;
  lastAt: string;
  count: number;
  banned: boolean;
  bannedCategories: string[];
}

export interface BouncerOverview {
  bouncers: BouncerStatus[];
  rejections: BouncerRejection[];
}

export const bouncerStatusKey = ['bouncers', 'status'] as const;

/** firewall:getBouncerStatus: each bouncer key's polls and hosts, and the sources refused. */
export const getBouncerStatus = () => api.get<BouncerOverview>('firewall:getBouncerStatus');

export const bouncerStatusQueryOptions = () =>
  queryOptions({ queryKey: bouncerStatusKey, queryFn: getBouncerStatus, refetchInterval: 5_000 });

export const useBouncerStatus = () => useQuery(bouncerStatusQueryOptions());
