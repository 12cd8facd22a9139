import type { Answer } from '../../../../src-shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type BouncerOverview = Answer<'firewall.getBouncerStatus'>;
export type BouncerStatus = BouncerOverview['bouncers'][number];
/** Why the key's last poll was refused, while that refusal is its last attempt. */
export type BouncerRefusal = NonNullable<BouncerStatus['refusal']>;
/** One source address a key polled from (`key@ip`), with what the bouncer reports of itself. */
export type BouncerHost = BouncerStatus['hosts'][number];
/** A source refused on the export this week, and whether a ban still locks it out. */
export type BouncerRejection = BouncerOverview['rejections'][number];

export const bouncerStatusKey = ['bouncers', 'status'] as const;

/** firewall:getBouncerStatus: each bouncer key's polls and hosts, and the sources refused. */
export const getBouncerStatus = () => api.get<BouncerOverview>('firewall:getBouncerStatus');

export const bouncerStatusQueryOptions = () =>
  queryOptions({ queryKey: bouncerStatusKey, queryFn: getBouncerStatus, refetchInterval: 5_000 });

export const useBouncerStatus = () => useQuery(bouncerStatusQueryOptions());
