import { z } from 'zod';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { ALL_CRUD_OPERATIONS, NO_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';

export const extensionsDeclaration = {
  name: 'extensions',
  description: 'Internal phone numbers (PJSIP endpoints) of the PBX.',
  processor: 'ExtensionsManagementProcessor',
  kind: 'collection',
  idField: 'number',
  security: { permission: 'Extensions', channels: ['localhost', 'bearer_token'] },
  fields: {
    number: field.text(z.string().regex(/^\d{2,8}$/, 'must be 2 to 8 digits'), {
      required: true,
      description: 'Extension number; the record id.',
    }),
    username: field.text(z.string().min(1).max(100), { required: true, description: 'Display name of the user.' }),
    callerid: field.text(z.string().max(100), { default: '', description: 'Caller ID shown on outgoing calls.' }),
    secret: field.text(z.string().min(8, 'must be at least 8 characters').max(64), {
      required: true,
      writeOnly: true,
      description: 'SIP password; write-only.',
    }),
    disabled: field.boolean({ default: false }),
  },
  operations: ALL_CRUD_OPERATIONS,
  customMethods: {
    getForSelect: {
      ...READ_ON_COLLECTION,
      description: 'Extensions as `{value, text}` pairs for pickers.',
      input: NO_QUERY,
      output: z.array(z.object({ value: z.string(), text: z.string() })),
    },
  },
} satisfies ResourceDeclaration;
