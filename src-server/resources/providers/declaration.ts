import { z } from 'zod';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { ALL_CRUD_OPERATIONS, PAGE_QUERY, READ_ON_COLLECTION, registryItem } from '../../resource-kit/contract.ts';

/** Host name or address, optionally with a port. */
const hostSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, 'must be a host name or address, optionally with :port');

export const providersDeclaration = {
  name: 'providers',
  description: 'SIP trunks to telephony providers.',
  processor: 'ProvidersManagementProcessor',
  kind: 'collection',
  idField: 'id',
  security: { permission: 'Providers', channels: ['localhost', 'bearer_token'] },
  fields: {
    id: field.text(z.string(), { readOnly: true, description: 'Generated id, such as SIP-1A2B3C4D.' }),
    description: field.text(z.string().min(1).max(255), { required: true }),
    host: field.text(hostSchema, { required: true }),
    username: field.text(z.string().max(100), { default: '' }),
    secret: field.text(z.string().max(100), {
      default: '',
      writeOnly: true,
      description: 'Registration password; write-only.',
    }),
    disabled: field.boolean({ default: false }),
  },
  operations: ALL_CRUD_OPERATIONS,
  customMethods: {
    getStatuses: {
      ...READ_ON_COLLECTION,
      description:
        'Registration state of every provider from Asterisk (AMI): `{state, id, username, host, description}`; state is `OK` or `OFF`.',
      input: z.object(PAGE_QUERY),
      output: z.array(registryItem.extend({ description: z.string() })),
    },
  },
} satisfies ResourceDeclaration;
