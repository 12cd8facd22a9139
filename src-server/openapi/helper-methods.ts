import type { PathPermission } from '../../src-shared/access.ts';
import type { HttpVerb, Level, ResourceDeclaration } from '../resource-kit/types.ts';
import type { JsonSchema } from './components.ts';
import { V3 } from './document.ts';
import { listOperations, type ListedOperation } from './operation-list.ts';

/**
 * The reference PBX's OpenAPI helper methods (openapi:getValidationSchemas, getAclRules,
 * getDetailedPermissions), in its shapes, from the same declarations the OpenAPI document comes from.
 */

/** One parameter as the reference describes it; `validation` holds the schema's other keywords (bounds, pattern...). */
interface ParameterRule {
  type: string;
  required: boolean;
  validation: JsonSchema;
  default: unknown;
  enum: unknown[] | null;
}

const typeOf = (schema: JsonSchema): string => {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return String(schema.type.find((t) => t !== 'null') ?? 'null');
  if (Array.isArray(schema.enum)) return typeof schema.enum[0] === 'number' ? 'number' : 'string';
  return 'mixed';
};

/** `anyOf: [X, {type: null}]` (a nullable field) reads as X with `nullable: true` in `validation`. */
function unwrapNullable(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf as JsonSchema[] | undefined;
  const others = options?.filter((option) => option.type !== 'null') ?? [];
  if (!options || others.length !== 1 || others.length === options.length) return schema;
  const { anyOf: _options, ...rest } = schema;
  return { ...rest, ...others[0], nullable: true };
}

function parameterRule(original: JsonSchema, required: boolean): ParameterRule {
  const schema = unwrapNullable(original);
  const { type: _type, default: fallback, enum: values, description: _text, ...validation } = schema;
  return {
    type: typeOf(schema),
    required,
    validation,
    default: fallback ?? null,
    enum: Array.isArray(values) ? values : null,
  };
}

const keyOf = (op: ListedOperation) => `${op.path}:${op.name}`;

/** `openapi:getValidationSchemas`: per `{path}:{operation}`, its parameters and the whole input JSON Schema. */
export function validationSchemas(
  declarations: readonly ResourceDeclaration[],
): Record<string, { parameters: Record<string, ParameterRule>; schema: JsonSchema }> {
  return Object.fromEntries(
    listOperations(declarations).map((op) => {
      const properties = (op.input.properties as Record<string, JsonSchema> | undefined) ?? {};
      const required = new Set((op.input.required as string[] | undefined) ?? []);
      const parameters: Record<string, ParameterRule> = {};
      if (op.requiresId) parameters.id = parameterRule({ type: 'string' }, true);
      for (const [name, schema] of Object.entries(properties))
        parameters[name] = parameterRule(schema, required.has(name));
      return [keyOf(op), { parameters, schema: op.input }];
    }),
  );
}

/** The allowed_paths grant a level needs for a verb (auth/authorize.ts); SENSITIVE needs full_permissions. */
function grantFor(level: Level, verb: HttpVerb): PathPermission | 'full_permissions' {
  if (level === 'SENSITIVE') return 'full_permissions';
  if (level === 'READ') return verb === 'GET' ? 'read' : 'write';
  return 'write';
}

const grantsOf = (op: ListedOperation) => Object.fromEntries(op.verbs.map((verb) => [verb, grantFor(op.level, verb)]));

/** `openapi:getAclRules`: resource security, each operation's level and grants, and the levels each permission has. */
export function aclRules(declarations: readonly ResourceDeclaration[]) {
  const operations = listOperations(declarations);
  const resources = Object.fromEntries(
    [...new Map(operations.map((op) => [op.path, op.declaration])).entries()].map(([path, declaration]) => [
      path,
      { permission: declaration.security.permission, channels: declaration.security.channels },
    ]),
  );
  const permissions: Record<string, Level[]> = {};
  for (const op of operations) {
    const levels = (permissions[op.declaration.security.permission] ??= []);
    if (!levels.includes(op.level)) levels.push(op.level);
  }
  return {
    resources,
    operations: Object.fromEntries(
      operations.map((op) => [
        keyOf(op),
        {
          security: op.isPublic ? ['public'] : op.declaration.security.channels,
          acl: {
            permission: `${op.declaration.security.permission}:${op.level}`,
            level: op.level,
            verbs: op.verbs,
            grants: grantsOf(op),
          },
          requiresId: op.requiresId,
        },
      ]),
    ),
    permissions,
  };
}

/** The category a declaration falls in: the core's, or its module's (`module-{slug}/...`, `module-v1:Name`). */
const categoryOf = (name: string) =>
  name.startsWith('module-') ? (/^module-(?:v[12]:)?([^/]+)/.exec(name)?.[1] ?? name) : 'PBX_CORE_REST';

interface Controller {
  name: string;
  label: string;
  actions: string[];
  /** Beyond the reference's shape: each action's level and the allowed_paths grant per verb. */
  levels: Record<string, Level>;
  grants: Record<string, Record<string, string>>;
}

/** `openapi:getDetailedPermissions`: `categories` (PBX_CORE_REST, then one per module), each `{type, controllers}`. */
export function detailedPermissions(declarations: readonly ResourceDeclaration[]) {
  const categories: Record<string, { type: 'REST'; controllers: Record<string, Controller> }> = {};
  for (const op of listOperations(declarations)) {
    const category = (categories[categoryOf(op.declaration.name)] ??= { type: 'REST', controllers: {} });
    const controller = (category.controllers[op.path] ??= {
      name: op.path.startsWith(V3) ? op.path.slice(V3.length) : op.path.split('/').pop()!,
      label: op.declaration.name,
      actions: [],
      levels: {},
      grants: {},
    });
    controller.actions.push(op.name);
    controller.levels[op.name] = op.level;
    controller.grants[op.name] = grantsOf(op);
  }
  return { categories };
}
