import { NO_BODY, NO_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import {
  aclRulesOutput,
  clearCacheOutput,
  detailedPermissionsOutput,
  specificationOutput,
  specificationQuery,
  validationSchemasOutput,
} from './schemas.ts';

const FORMAT_HINT = 'With `format=yaml`, `data` is the document as YAML text.';

/** The OpenAPI 3.1 description of the whole API, generated from the declarations, and the reference PBX's helpers. */
export const openapiDeclaration = {
  name: 'openapi',
  description: 'OpenAPI 3.1 description of this API, generated from the same declarations that serve it.',
  processor: 'OpenApiProcessor',
  // GET openapi answers like openapi:getSpecification (the reference PBX's `GET openapi?format=yaml`).
  kind: 'singleton',
  security: { permission: 'OpenApi', channels: ['localhost', 'bearer_token'] },
  fields: {},
  operations: ['getRecord'],
  recordQuery: specificationQuery,
  customMethods: {
    getSpecification: {
      ...READ_ON_COLLECTION,
      description:
        'The OpenAPI 3.1 document (in `data`): every core and module resource, auth, firewall export, older ' +
        `endpoints. ${FORMAT_HINT}`,
      input: specificationQuery,
      output: specificationOutput,
    },
    getValidationSchemas: {
      ...READ_ON_COLLECTION,
      description:
        'The input schema of every operation, keyed `{path}:{operation}`: `parameters` (type, required, ' +
        'validation, default, enum per parameter) and the whole JSON Schema in `schema`.',
      input: NO_QUERY,
      output: validationSchemasOutput,
    },
    getAclRules: {
      ...READ_ON_COLLECTION,
      description:
        'Access rules: `resources` (permission and channels per path), `operations` (level, verbs and the ' +
        'allowed_paths grant per verb, keyed `{path}:{operation}`) and `permissions` (the levels of each).',
      input: NO_QUERY,
      output: aclRulesOutput,
    },
    getDetailedPermissions: {
      ...READ_ON_COLLECTION,
      description:
        '`categories`: PBX_CORE_REST and one per module, each `{type: "REST", controllers}`; a controller ' +
        "has `name`, `label`, `actions`, and each action's `levels` and `grants`.",
      input: NO_QUERY,
      output: detailedPermissionsOutput,
    },
    clearCache: {
      verbs: ['POST', 'DELETE'],
      scope: 'collection',
      level: 'WRITE',
      description: "Drops this worker's cached document; the next request builds it again from the declarations.",
      input: NO_BODY,
      output: clearCacheOutput,
    },
  },
} satisfies ResourceDeclaration;
