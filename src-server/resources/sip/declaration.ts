import { z } from 'zod';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { DETAIL_FIELDS } from '../../peers/peer-status.ts';
import { NO_QUERY, PAGE_QUERY, READ_ON_COLLECTION, registryItem } from '../../resource-kit/contract.ts';

/** Live SIP state of extensions and providers, read from Asterisk over AMI. */
export const sipDeclaration = {
  name: 'sip',
  description:
    'Live SIP state from Asterisk (AMI): extension states, provider registrations and per-extension contact detail.',
  processor: 'SIPStackProcessor',
  kind: 'collection',
  idField: 'id',
  security: { permission: 'Sip', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: [],
  customMethods: {
    getPeersStatuses: {
      ...READ_ON_COLLECTION,
      description: 'Every extension as `{id, state}`; state is `OK` or `UNKNOWN`. Accepts `limit` and `offset`.',
      input: z.object(PAGE_QUERY),
      output: z.array(z.object({ id: z.string(), state: z.enum(['OK', 'UNKNOWN']) })),
    },
    getRegistry: {
      ...READ_ON_COLLECTION,
      description: 'Every provider as `{state, id, username, host}`; state is `OK` (registered) or `OFF`.',
      input: z.object(PAGE_QUERY),
      output: z.array(registryItem),
    },
    getStatus: {
      verbs: ['GET', 'POST'],
      scope: 'resource',
      level: 'READ',
      description: 'Contact detail of one extension (all strings) plus `state`.',
      input: NO_QUERY,
      output: z.object(Object.fromEntries([...DETAIL_FIELDS, 'state'].map((name) => [name, z.string()]))),
    },
  },
} satisfies ResourceDeclaration;
