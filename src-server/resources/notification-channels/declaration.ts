import { z } from 'zod';
import { ALL_CRUD_OPERATIONS, NO_BODY } from '../../resource-kit/contract.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { CHANNEL_FIELDS } from '../../notifications/channel-fields.ts';

/** `notification-channels`: where health notifications go (issue 5/6); the rules say what goes where. */
export const notificationChannelsDeclaration = {
  name: 'notification-channels',
  description:
    'Where health notifications go: a signed webhook, e-mail over SMTP (STARTTLS or TLS), syslog ' +
    '(RFC 5424 over UDP or TCP) or an ntfy-style HTTP push. Each keeps its last send in `lastResult`; ' +
    '`:sendTest` queues a test message. The secret is sealed at rest and never returned; changing ' +
    'where it goes (url, host, port, username, type) needs SENSITIVE or the secret re-entered.',
  processor: 'NotificationChannelsProcessor',
  kind: 'collection',
  idField: 'id',
  security: {
    permission: 'Notifications',
    channels: ['localhost', 'bearer_token'],
    levels: { create: 'ADMIN', update: 'ADMIN', patch: 'ADMIN', delete: 'ADMIN' },
  },
  fields: CHANNEL_FIELDS,
  operations: ALL_CRUD_OPERATIONS,
  customMethods: {
    sendTest: {
      verbs: ['POST'],
      scope: 'resource',
      level: 'WRITE',
      description:
        'Queues a test message on this channel (sent off the request path, retried like any other); ' +
        "the outcome shows in the channel's `lastResult` and the audit log.",
      input: NO_BODY,
      output: z.object({ queued: z.boolean(), channelId: z.number().int() }),
    },
  },
} satisfies ResourceDeclaration;
