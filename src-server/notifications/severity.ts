import type { HealthSeverity } from '../wire/types.ts';

export const HEALTH_SEVERITIES = ['info', 'warning', 'critical'] as const satisfies readonly HealthSeverity[];

/** Whether `severity` is at least `minimum`. */
export const atLeast = (severity: HealthSeverity, minimum: HealthSeverity): boolean =>
  HEALTH_SEVERITIES.indexOf(severity) >= HEALTH_SEVERITIES.indexOf(minimum);
