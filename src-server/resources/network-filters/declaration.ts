import { z } from 'zod';
import { field } from '../../resource-kit/fields.ts';
import { READ_ON_COLLECTION } from '../../resource-kit/contract.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { FILTER_CATEGORIES, type FilterCategory } from '../../firewall/filters/index.ts';

/** Read-only view of the network filters (written through `firewall`), for pickers. */
export const networkFiltersDeclaration = {
  name: 'network-filters',
  description: 'Network filters, read-only (edit them through `firewall`); `getForSelect` lists them for pickers.',
  processor: 'NetworkFiltersManagementProcessor',
  kind: 'collection',
  idField: 'id',
  security: { permission: 'NetworkFilters', channels: ['localhost', 'bearer_token'] },
  fields: {
    id: field.recordId(),
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
      ...READ_ON_COLLECTION,
      description: 'Filters as `{value, text}`; with `?category=SIP|AMI|IAX|WEB`, only those allowing that category.',
      input: z.object({
        category: z
          .string()
          .refine((v) => v === '' || (FILTER_CATEGORIES as readonly string[]).includes(v.toUpperCase()), {
            error: `category must be one of ${FILTER_CATEGORIES.join(', ')}.`,
          })
          .transform((v) => (v === '' ? undefined : (v.toUpperCase() as FilterCategory)))
          .optional()
          .describe(`${FILTER_CATEGORIES.join(', ')} in any case; empty or absent for every filter.`),
      }),
      output: z.array(z.object({ value: z.string(), text: z.string(), permit: z.string(), description: z.string() })),
    },
  },
} satisfies ResourceDeclaration;
