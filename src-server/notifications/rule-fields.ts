import { z } from 'zod';
import { HEALTH_CHECK_KINDS, HEALTH_CHECK_LABELS } from '../../src-shared/health-check-kinds.ts';
import { field, oneLineText } from '../resource-kit/fields.ts';
import type { HealthCheckKind } from '../wire/types.ts';
import { HEALTH_SEVERITIES } from './severity.ts';

// The shared list names every check kind of the bus event, and nothing else.
const sameKinds: Record<HealthCheckKind, string> = HEALTH_CHECK_LABELS;
void sameKinds;

/** A digest window of at most a day: one message per rule per N minutes. */
export const MAX_DIGEST_MINUTES = 1440;

export const RULE_FIELDS = {
  id: field.recordId(),
  name: field.text(oneLineText(64, 'must be at most 64 characters').min(1, 'is required'), { required: true }),
  channelId: field.integer(z.number().int().min(1, 'must be a channel id').max(2147483647, 'must be a channel id'), {
    required: true,
    description: 'The channel messages go to (notification-channels).',
  }),
  checks: field.json(
    z
      .array(z.enum(HEALTH_CHECK_KINDS as [HealthCheckKind, ...HealthCheckKind[]]))
      .max(HEALTH_CHECK_KINDS.length)
      .refine((list) => new Set(list).size === list.length, { error: 'lists a check twice' }),
    { default: () => [], description: 'The check kinds this rule sends; empty: every check.' },
  ),
  minSeverity: field.text(z.enum(HEALTH_SEVERITIES), {
    default: 'warning',
    description: 'Checks below this severity are not sent: `info`, `warning` or `critical`.',
  }),
  digestMinutes: field.integer(
    z
      .number()
      .int()
      .min(0, `must be 0-${MAX_DIGEST_MINUTES}`)
      .max(MAX_DIGEST_MINUTES, `must be 0-${MAX_DIGEST_MINUTES}`),
    {
      default: 0,
      description:
        'At most one message per N minutes; what happens meanwhile is listed in the next one. 0: each change at once.',
    },
  ),
  recoveries: field.boolean({ default: true, description: 'Send a message when a check recovers too.' }),
  enabled: field.boolean({ default: true }),
};
