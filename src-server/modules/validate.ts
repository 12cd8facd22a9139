import { z } from 'zod';
import type { ResourceDefinition } from '../resource-kit/types.ts';
import type { ModuleExports, ModuleRoute, ModuleStyle } from './types.ts';

const VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const LEVELS = ['READ', 'WRITE', 'ADMIN', 'SENSITIVE'] as const;
const CRUD = ['getList', 'getRecord', 'create', 'update', 'patch', 'delete'] as const;
/** `module-{slug}/{resource}`: the v3 grammar's module form. */
export const MODULE_RESOURCE_NAME = /^module-[a-z0-9]+(-[a-z0-9]+)*\/[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const ACTION_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

const zodSchema = z.custom<z.ZodType>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    '_zod' in v &&
    typeof (v as { safeParse?: unknown }).safeParse === 'function',
  'must be a zod schema (use sdk.z)',
);
const fn = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', 'must be a function');

const fieldSchema = z.object({
  schema: zodSchema,
  storage: z.enum(['text', 'integer', 'boolean', 'json']),
  required: z.boolean().optional(),
  sanitize: fn.optional(),
  writeOnly: z.boolean().optional(),
  sensitive: z.boolean().optional(),
  readOnly: z.boolean().optional(),
  description: z.string().optional(),
});

const declarationSchema = z.object({
  // Any grammar-valid name passes here so that a core name is reported as a clash; install() then requires the module form.
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_/-]*$/, 'must be a path name such as module-{slug}/{resource}'),
  version: z.literal('v3').optional(),
  description: z.string().min(1),
  processor: z.string().min(1).optional(),
  kind: z.enum(['collection', 'singleton']).optional(),
  security: z.object({
    permission: z.string().min(1),
    channels: z.array(z.enum(['localhost', 'bearer_token', 'public'])).min(1),
    levels: z.partialRecord(z.enum(CRUD), z.enum(LEVELS)).optional(),
  }),
  idField: z.string().min(1).optional(),
  fields: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'field names are identifiers'), fieldSchema),
  operations: z.array(z.enum(CRUD)),
  customMethods: z
    .record(
      z.string().regex(ACTION_NAME, 'custom method names are identifiers'),
      z.object({
        verbs: z.array(z.enum(VERBS)).min(1),
        scope: z.enum(['collection', 'resource']),
        level: z.enum(LEVELS),
        public: z.boolean().optional(),
        description: z.string().optional(),
        input: zodSchema.optional(),
        output: zodSchema.optional(),
      }),
    )
    .optional(),
  requireOnEveryVerb: z.boolean().optional(),
});

const definitionSchema = z.object({
  declaration: declarationSchema,
  actions: z.object({ custom: z.record(z.string(), fn).optional() }).catchall(fn),
});

const routeSchema = z.object({
  action: z.string().regex(ACTION_NAME, 'must be an identifier'),
  methods: z.array(z.enum(VERBS)).min(1),
  handler: fn,
  public: z.boolean().optional(),
  level: z.enum(LEVELS).optional(),
  description: z.string().optional(),
});

function describe(error: z.ZodError, prefix: string): string {
  return error.issues
    .map((i) => [prefix, ...i.path.map(String)].filter(Boolean).join('.') + ` ${i.message}`)
    .join('; ');
}

/** Checks that a module's exports fit its style; returns the problems as one sentence, or undefined. */
export function exportsProblem(style: ModuleStyle, exported: ModuleExports): string | undefined {
  if (exported.install !== undefined && typeof exported.install !== 'function') return '"install" must be a function.';
  if (style === 'v3') {
    if (!Array.isArray(exported.resources) || exported.resources.length === 0)
      return 'A v3 module must export a non-empty "resources" array.';
    for (const [index, definition] of (exported.resources as unknown[]).entries()) {
      const parsed = definitionSchema.safeParse(definition);
      const label = (definition as ResourceDefinition | undefined)?.declaration?.name ?? `resources[${index}]`;
      if (!parsed.success) return `Invalid resource ${String(label)}: ${describe(parsed.error, '')}.`;
    }
    return undefined;
  }
  if (style === 'v2') {
    if (!Array.isArray(exported.routes) || exported.routes.length === 0)
      return 'A v2 module must export a non-empty "routes" table.';
    const seen = new Set<string>();
    for (const [index, route] of (exported.routes as unknown[]).entries()) {
      const parsed = routeSchema.safeParse(route);
      if (!parsed.success) return `Invalid route: ${describe(parsed.error, `routes[${index}]`)}.`;
      if (seen.has(parsed.data.action)) return `The route table declares "${parsed.data.action}" twice.`;
      seen.add(parsed.data.action);
    }
    return undefined;
  }
  if (typeof exported.callback !== 'function') return 'A v1 module must export a "callback" function.';
  const publicActions: unknown = exported.publicActions ?? [];
  if (!Array.isArray(publicActions) || !publicActions.every((a) => typeof a === 'string' && ACTION_NAME.test(a))) {
    return '"publicActions" must be a list of action names.';
  }
  return undefined;
}

/** Default access level of a v1/v2 route: reads for GET, writes otherwise. */
export function routeLevel(route: Pick<ModuleRoute, 'level' | 'methods'>): ModuleRoute['level'] & string {
  return route.level ?? (route.methods.every((m) => m === 'GET') ? 'READ' : 'WRITE');
}
