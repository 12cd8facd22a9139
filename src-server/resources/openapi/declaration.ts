import { z } from 'zod';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { NO_QUERY } from '../../resource-kit/contract.ts';

/** The OpenAPI 3.1 description of the whole API, generated from the declarations. */
export const openapiDeclaration: ResourceDeclaration = {
  name: 'openapi',
  description: 'OpenAPI 3.1 description of this API, generated from the same declarations that serve it.',
  processor: 'OpenApiProcessor',
  security: { permission: 'OpenApi', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: [],
  customMethods: {
    getSpecification: {
      verbs: ['GET'],
      scope: 'collection',
      level: 'READ',
      description:
        'The OpenAPI 3.1 document (in `data`): every core and module resource, auth, firewall export, older endpoints.',
      input: NO_QUERY,
      output: z.looseObject({
        openapi: z.string(),
        info: z.looseObject({ title: z.string(), version: z.string() }),
        paths: z.record(z.string(), z.record(z.string(), z.unknown())),
        components: z.record(z.string(), z.unknown()),
      }),
    },
  },
};
