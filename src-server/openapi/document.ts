import { parseLegacyResourceName } from '../modules/load.ts';
import { crudLevel } from '../resource-kit/levels.ts';
import type { CrudOperation, CustomMethodDecl, HttpVerb, ResourceDeclaration } from '../resource-kit/types.ts';
import {
  baseComponents,
  BEARER_SECURITY,
  envelopeOf,
  ERROR_STATUSES,
  errorResponses,
  jsonContent,
  ref,
  type JsonSchema,
} from './components.ts';
import { jsonSchemaOf, queryParameters, recordSchema, requiredFields } from './field-schemas.ts';
import { fixedOperation, fixedRoutes, type FixedRoute } from './fixed-routes.ts';

export const V3 = '/pbxcore/api/v3/';

export interface OpenApiSources {
  /** Every declaration of the registry: core, module v3 resources, and module v1/v2 route wrappers. */
  declarations: readonly ResourceDeclaration[];
  version: string;
  fixed?: readonly FixedRoute[];
}

type Operation = Record<string, unknown>;
type PathItem = Record<string, Operation | unknown>;

/** `module-example-tasks/tasks` -> `ModuleExampleTasksTasks`: a component name. */
export const componentName = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');

/** Builds the OpenAPI 3.1 document from the same declarations that route and validate requests. */
export function buildOpenApiDocument(sources: OpenApiSources): Record<string, unknown> {
  const paths: Record<string, PathItem> = {};
  const schemas: Record<string, JsonSchema> = { ...baseComponents.schemas };
  const operationIds = new Set<string>();
  const add = (path: string, verb: string, operation: Operation) => {
    let id = String(operation.operationId);
    for (let n = 2; operationIds.has(id); n++) id = `${String(operation.operationId)}_${n}`;
    operationIds.add(id);
    (paths[path] ??= {})[verb.toLowerCase()] = { ...operation, operationId: id };
  };

  const sorted = [...sources.declarations].sort((a, b) => a.name.localeCompare(b.name));
  for (const declaration of sorted) {
    const legacy = parseLegacyResourceName(declaration.name);
    if (legacy) addLegacyModule(declaration, legacy, add);
    else addResource(declaration, schemas, add);
  }
  for (const route of sources.fixed ?? fixedRoutes) {
    if ((paths[route.path] as PathItem | undefined)?.[route.method.toLowerCase()]) continue; // declared resources win
    add(
      route.path,
      route.method,
      fixedOperation(route, `${route.tag}.${route.method.toLowerCase()}.${route.path.split('/').pop()}`),
    );
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'PBX Console API',
      version: sources.version,
      description:
        'Management API of the PBX: the v3 REST resources (core and extension modules), ' +
        'authentication, the firewall export for bouncers, ' +
        'and the older endpoints. Requests from 127.0.0.1 or ::1 without a credential skip authentication (localhost bypass). ' +
        'Any v3 request may be made asynchronous with the X-Async-Channel header.',
    },
    servers: [{ url: '/' }],
    security: BEARER_SECURITY,
    tags: [
      ...new Set(
        Object.values(paths).flatMap((item) =>
          Object.values(item).flatMap((op) => ((op as Operation).tags as string[]) ?? []),
        ),
      ),
    ]
      .sort()
      .map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { ...baseComponents, schemas },
  };
}

function securityOf(
  declaration: ResourceDeclaration,
  isPublic: boolean,
): { security: unknown[]; 'x-pbx-channels': string[] } {
  const channels = isPublic ? ['public'] : declaration.security.channels;
  const security = isPublic || !channels.includes('bearer_token') ? [] : BEARER_SECURITY;
  return { security, 'x-pbx-channels': channels };
}

function addResource(
  declaration: ResourceDeclaration,
  schemas: Record<string, JsonSchema>,
  add: (path: string, verb: string, op: Operation) => void,
): void {
  const schemaName = componentName(declaration.name);
  const base = `${V3}${declaration.name}`;
  const singleton = declaration.kind === 'singleton';
  const tags = [declaration.name];
  const required = requiredFields(declaration);
  const hasRecordSchema = declaration.operations.length > 0;
  const recordJson = recordSchema(declaration);
  const idField = declaration.idField ?? 'id';
  if (hasRecordSchema) schemas[schemaName] = recordJson;
  const record = ref(schemaName);
  const asyncParam = { $ref: '#/components/parameters/asyncChannel' };
  const idParam = { $ref: '#/components/parameters/id' };
  const withRequired = required.length ? { allOf: [record], required } : record;

  const crud: Record<
    CrudOperation,
    {
      verb: HttpVerb;
      path: string;
      summary: string;
      status: string;
      data: JsonSchema;
      body?: JsonSchema;
      errors: string[];
    }
  > = {
    getList: {
      verb: 'GET',
      path: base,
      summary: `List ${declaration.name}.`,
      status: '200',
      data: { type: 'array', items: record },
      errors: [],
    },
    getRecord: {
      verb: 'GET',
      path: singleton ? base : `${base}/{id}`,
      summary: singleton ? `Read ${declaration.name}.` : `Read one record of ${declaration.name}.`,
      status: '200',
      data: record,
      errors: singleton ? [] : [...ERROR_STATUSES.record],
    },
    create: {
      verb: 'POST',
      path: base,
      summary: `Create a record of ${declaration.name}.`,
      status: '201',
      data: declaration.createOutput ? jsonSchemaOf(declaration.createOutput, 'output') : record,
      body: withRequired,
      errors: [...ERROR_STATUSES.write, ...ERROR_STATUSES.create],
    },
    update: {
      verb: 'PUT',
      path: singleton ? base : `${base}/{id}`,
      summary: `Replace ${singleton ? declaration.name : `a record of ${declaration.name}`} (required fields enforced).`,
      status: '200',
      data: record,
      body: withRequired,
      errors: [...ERROR_STATUSES.write, ...(singleton ? [] : ERROR_STATUSES.record)],
    },
    patch: {
      verb: 'PATCH',
      path: singleton ? base : `${base}/{id}`,
      summary:
        `Change some fields of ${singleton ? declaration.name : `a record of ${declaration.name}`}; ` +
        `only fields present are written.`,
      status: '200',
      data: record,
      body: declaration.requireOnEveryVerb ? withRequired : record,
      errors: [...ERROR_STATUSES.write, ...(singleton ? [] : ERROR_STATUSES.record)],
    },
    delete: {
      verb: 'DELETE',
      path: `${base}/{id}`,
      summary: `Delete a record of ${declaration.name}.`,
      status: '200',
      data: {
        type: 'object',
        description: 'The id of the deleted record.',
        required: [idField],
        properties: { [idField]: ((recordJson as JsonSchema).properties as Record<string, JsonSchema>)[idField] ?? {} },
      },
      errors: [...ERROR_STATUSES.record],
    },
  };

  for (const op of declaration.operations) {
    const spec = crud[op];
    const level = crudLevel(declaration, op);
    const parameters = [
      ...(spec.path.includes('{id}') ? [idParam] : []),
      ...(op === 'getList'
        ? [
            { $ref: '#/components/parameters/limit' },
            { $ref: '#/components/parameters/offset' },
            ...queryParameters(declaration.listQuery),
          ]
        : []),
      ...(op === 'delete' ? queryParameters(declaration.deleteQuery) : []),
      ...(op === 'getRecord' ? queryParameters(declaration.recordQuery) : []),
      asyncParam,
    ];
    add(spec.path, spec.verb, {
      operationId: `${declaration.name}.${op}`,
      tags,
      summary: spec.summary,
      ...securityOf(declaration, false),
      'x-permission': `${declaration.security.permission}:${level}`,
      parameters,
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: { ...jsonContent(spec.body), 'application/x-www-form-urlencoded': { schema: spec.body } },
            },
          }
        : {}),
      responses: {
        [spec.status]: {
          description: spec.summary,
          content: jsonContent(envelopeOf(spec.data, op === 'getList' ? { pagination: ref('Pagination') } : {})),
        },
        ...errorResponses([...ERROR_STATUSES.common, '405', ...spec.errors]),
      },
    });
  }

  for (const [name, method] of Object.entries(declaration.customMethods ?? {})) {
    const path = method.scope === 'resource' ? `${base}/{id}:${name}` : `${base}:${name}`;
    for (const verb of method.verbs)
      add(
        path,
        verb,
        customOperation(declaration, name, method, verb, [
          ...(method.scope === 'resource' ? [idParam] : []),
          asyncParam,
        ]),
      );
  }
}

function customOperation(
  declaration: ResourceDeclaration,
  name: string,
  method: CustomMethodDecl,
  verb: HttpVerb,
  parameters: unknown[],
): Operation {
  const summary = method.description ?? `${declaration.name}:${name}`;
  const { input } = method;
  return {
    operationId: `${declaration.name}.${name}${method.verbs.length > 1 ? `.${verb.toLowerCase()}` : ''}`,
    tags: [declaration.name],
    summary,
    ...securityOf(declaration, method.public === true),
    'x-permission': `${declaration.security.permission}:${method.level}`,
    parameters: [...parameters, ...(verb === 'GET' ? queryParameters(input) : [])],
    ...(verb !== 'GET' ? { requestBody: { required: false, content: jsonContent(jsonSchemaOf(input)) } } : {}),
    responses: {
      '200': { description: summary, content: jsonContent(envelopeOf(jsonSchemaOf(method.output, 'output'))) },
      ...errorResponses([
        ...ERROR_STATUSES.common,
        '405',
        '422',
        ...(method.scope === 'resource' ? ERROR_STATUSES.record : []),
      ]),
    },
  };
}

/** v2 routes at `/pbxcore/api/{slug}/{action}`; v1 callbacks at `/pbxcore/api/modules/{Name}/{action}`. */
function addLegacyModule(
  declaration: ResourceDeclaration,
  legacy: { style: 'v1' | 'v2'; key: string },
  add: (path: string, verb: string, op: Operation) => void,
): void {
  const tags = [`module ${declaration.processor ?? legacy.key}`];
  const response = {
    '200': { description: "The action's envelope (with `jsonapi`).", content: jsonContent(envelopeOf({})) },
    ...errorResponses(['400', '401', '403', '422', '503']),
  };
  const operation = (
    id: string,
    summary: string,
    isPublic: boolean,
    level: string,
    parameters: unknown[] = [],
  ): Operation => ({
    operationId: id,
    tags,
    summary,
    ...securityOf(declaration, isPublic),
    'x-permission': `${declaration.security.permission}:${level}`,
    ...(parameters.length ? { parameters } : {}),
    responses: response,
  });
  const methods = Object.entries(declaration.customMethods ?? {});
  if (legacy.style === 'v2') {
    for (const [action, method] of methods) {
      for (const verb of method.verbs) {
        add(
          `/pbxcore/api/${legacy.key}/${action}`,
          verb,
          operation(
            `${legacy.key}.${action}.${verb.toLowerCase()}`,
            method.description ?? `${legacy.key}/${action}`,
            method.public === true,
            method.level,
          ),
        );
      }
    }
    return;
  }
  const actionParam = {
    name: 'action',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
  };
  for (const verb of ['GET', 'POST']) {
    add(
      `/pbxcore/api/modules/${legacy.key}/{action}`,
      verb,
      operation(
        `modules.${legacy.key}.${verb.toLowerCase()}`,
        `Callback of module ${legacy.key} (v1).`,
        false,
        verb === 'GET' ? 'READ' : 'WRITE',
        [actionParam],
      ),
    );
    for (const [action] of methods) {
      add(
        `/pbxcore/api/modules/${legacy.key}/${action}`,
        verb,
        operation(
          `modules.${legacy.key}.${action}.${verb.toLowerCase()}`,
          `Public action ${action} of module ${legacy.key} (v1).`,
          true,
          'READ',
        ),
      );
    }
  }
}
