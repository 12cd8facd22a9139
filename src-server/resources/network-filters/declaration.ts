import { z } from 'zod';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';

/** Read-only view of the network filters (written through `firewall`), for pickers. */
export const networkFiltersDeclaration: ResourceDeclaration = {
  name: 'network-filters',
  description: 'Network filters, read-only (edit them through `firewall`); `getForSelect` lists them for pickers.',
  processor: 'NetworkFiltersManagementProcessor',
  kind: 'collection',
  idField: 'id',
  security: { permission: 'NetworkFilters', channels: ['localhost', 'bearer_token'] },
  fields: {
    id: field.integer(z.number().int(), { readOnly: true }),
    permit: field.text(z.string(), { readOnly: true }),
    deny: field.text(z.string(), { readOnly: true }),
    description: field.text(z.string(), { readOnly: true }),
    newer_block_ip: field.boolean({ readOnly: true }),
    local_network: field.boolean({ readOnly: true }),
    rules: field.json(z.record(z.string(), z.enum(['allow', 'block'])), { readOnly: true }),
  },
  operations: ['getList', 'getRecord'],
  customMethods: {
    getForSelect: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      description: 'Filters as `{value, text}`; with `?category=SIP|AMI|IAX|WEB`, only those allowing that category.',
      input: z.object({ category: z.enum(['SIP', 'AMI', 'IAX', 'WEB']).optional() }),
    },
  },
};
