import { ALL_CRUD_OPERATIONS } from '../../resource-kit/contract.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { RULE_FIELDS } from '../../notifications/rule-fields.ts';

/** `notification-rules`: which health checks, from which severity, go to which channel, and how often. */
export const notificationRulesDeclaration = {
  name: 'notification-rules',
  description:
    'Which health checks go to which channel: the check kinds (empty: every one), a minimum severity, ' +
    'recoveries or not, and a digest window (at most one message per rule per `digestMinutes`, listing ' +
    'what happened meanwhile). A rule is deleted with its channel.',
  processor: 'NotificationRulesProcessor',
  kind: 'collection',
  idField: 'id',
  security: {
    permission: 'Notifications',
    channels: ['localhost', 'bearer_token'],
    levels: { create: 'ADMIN', update: 'ADMIN', patch: 'ADMIN', delete: 'ADMIN' },
  },
  fields: RULE_FIELDS,
  operations: ALL_CRUD_OPERATIONS,
} satisfies ResourceDeclaration;
