import type { ResourceDeclaration } from '../../resource-kit/types.ts';

/** Path of the push channel for asynchronous results. */
export const EVENTS_PATH = '/pbxcore/api/v3/events';

/**
 * The push channel's security, for authorize(). It is served by a web-thread route (a stream
 * cannot run in a worker), so it is not in the registry.
 */
export const eventsDeclaration = {
  name: 'events',
  description:
    'Server-Sent Events with the results of asynchronous requests (X-Async-Channel), and their retrieval for 120 s.',
  processor: 'EventsChannel',
  security: { permission: 'Events', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: [],
} satisfies ResourceDeclaration;
