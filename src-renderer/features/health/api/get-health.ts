import type { Answer } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

export type HealthChecks = Answer<'system.getHealth'>;
export type HealthCheck = HealthChecks['checks'][number];
/** The console page where a check is acted on. */
export type HealthArea = NonNullable<HealthCheck['area']>;

export const healthKey = ['system', 'health'] as const;

/** system:getHealth: the checks failing now, most severe first. */
export const getHealth = () => callOperation('system.getHealth');

export const useHealth = polledQuery(healthKey, getHealth, 15_000);
