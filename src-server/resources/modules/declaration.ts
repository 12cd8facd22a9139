import { z } from 'zod';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';

const readOnly = { readOnly: true } as const;

/** Installed extension modules and what became of each at start (read-only). */
export const modulesDeclaration = {
  name: 'modules',
  description: 'Installed extension modules with their status: loaded, or failed with the reason it was skipped.',
  processor: 'ModulesManagementProcessor',
  kind: 'collection',
  idField: 'name',
  security: { permission: 'Modules', channels: ['localhost', 'bearer_token'] },
  fields: {
    name: field.text(z.string(), { ...readOnly, description: 'Module name (its folder name); the record id.' }),
    slug: field.text(z.string().nullable(), {
      ...readOnly,
      description: 'URL segment of the module; null when the manifest is unreadable.',
    }),
    version: field.text(z.string().nullable(), readOnly),
    style: field.text(z.enum(['v1', 'v2', 'v3']).nullable(), {
      ...readOnly,
      description: 'v3 declared resources, v2 route table, v1 single callback.',
    }),
    description: field.text(z.string(), readOnly),
    dir: field.text(z.string(), { ...readOnly, description: 'Folder the module was found in.' }),
    bundled: field.boolean({
      ...readOnly,
      description: 'Shipped with the product (an example) rather than installed in the data directory.',
    }),
    status: field.text(z.enum(['loaded', 'failed']), readOnly),
    error: field.text(z.string().nullable(), {
      ...readOnly,
      description: 'Why the module was skipped; null when loaded.',
    }),
    paths: field.json(z.array(z.string()), { ...readOnly, description: 'Paths the module serves.' }),
  },
  operations: ['getList', 'getRecord'],
} satisfies ResourceDeclaration;
