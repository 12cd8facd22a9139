import type { Answer } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

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
export const getBouncerStatus = () => callOperation('firewall.getBouncerStatus');

export const useBouncerStatus = polledQuery(bouncerStatusKey, getBouncerStatus, 5_000);
