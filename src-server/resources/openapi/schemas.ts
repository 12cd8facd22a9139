import { z } from 'zod';
import { ACCESS_LEVELS } from '../../../src-shared/access.ts';

/** The document's formats: JSON (the default) or YAML text. */
const SPEC_FORMATS = ['json', 'yaml'] as const;

/** `?format=json|yaml` of `GET openapi` and `openapi:getSpecification`. */
export const specificationQuery = z.object({
  format: z.enum(SPEC_FORMATS, { error: `must be one of: ${SPEC_FORMATS.join(', ')}` }).optional(),
});

const openapiDocument = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.unknown()),
});

/** The document, or with `format=yaml` the same document as YAML text. */
export const specificationOutput = z.union([openapiDocument, z.string().describe('The document as YAML text.')]);

const jsonSchema = z.record(z.string(), z.unknown());
const level = z.enum(ACCESS_LEVELS);
/** The allowed_paths grant per verb: `read`, `write`, or `full_permissions` (SENSITIVE). */
const grantsPerVerb = z.record(z.string(), z.string());

export const validationSchemasOutput = z.record(
  z.string().describe('`{path}:{operation}`'),
  z.object({
    parameters: z.record(
      z.string(),
      z.object({
        type: z.string(),
        required: z.boolean(),
        validation: jsonSchema,
        default: z.unknown(),
        enum: z.array(z.unknown()).nullable(),
      }),
    ),
    schema: jsonSchema,
  }),
);

export const aclRulesOutput = z.object({
  resources: z.record(z.string(), z.object({ permission: z.string(), channels: z.array(z.string()) })),
  operations: z.record(
    z.string(),
    z.object({
      security: z.array(z.string()),
      acl: z.object({ permission: z.string(), level, verbs: z.array(z.string()), grants: grantsPerVerb }),
      requiresId: z.boolean(),
    }),
  ),
  permissions: z.record(z.string(), z.array(level)),
});

export const detailedPermissionsOutput = z.object({
  categories: z.record(
    z.string(),
    z.object({
      type: z.literal('REST'),
      controllers: z.record(
        z.string(),
        z.object({
          name: z.string(),
          label: z.string(),
          actions: z.array(z.string()),
          levels: z.record(z.string(), level),
          grants: z.record(z.string(), grantsPerVerb),
        }),
      ),
    }),
  ),
});

export const clearCacheOutput = z.object({ message: z.string() });
