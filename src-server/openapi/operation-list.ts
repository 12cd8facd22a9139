import { parseLegacyResourceName } from '../modules/load.ts';
import { crudLevel } from '../resource-kit/levels.ts';
import type { CrudOperation, HttpVerb, Level, ResourceDeclaration } from '../resource-kit/types.ts';
import type { JsonSchema } from './components.ts';
import { V3 } from './document.ts';
import { jsonSchemaOf, recordSchema, requiredFields } from './field-schemas.ts';

/** One operation of the API as the reference PBX's helper methods list it: `{path}:{name}`. */
export interface ListedOperation {
  declaration: ResourceDeclaration;
  /** `/pbxcore/api/v3/firewall`, or a module's v1/v2 root. */
  path: string;
  name: string;
  verbs: HttpVerb[];
  level: Level;
  requiresId: boolean;
  isPublic: boolean;
  /** JSON Schema of what the operation takes: query parameters for GET, the body otherwise. */
  input: JsonSchema;
}

const CRUD_VERBS: Record<CrudOperation, HttpVerb> = {
  getList: 'GET',
  getRecord: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
};
const objectSchema = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});

const PAGE = { limit: { type: 'integer', minimum: 0, maximum: 1000 }, offset: { type: 'integer', minimum: 0 } };

/** The input of a CRUD operation, from the same field table the save path validates with. */
function crudInput(declaration: ResourceDeclaration, op: CrudOperation): JsonSchema {
  if (op === 'getList') {
    const list = declaration.listQuery ? jsonSchemaOf(declaration.listQuery) : {};
    return objectSchema({ ...PAGE, ...((list.properties as Record<string, JsonSchema>) ?? {}) });
  }
  if (op === 'getRecord' || op === 'delete') {
    const query = op === 'getRecord' ? declaration.recordQuery : declaration.deleteQuery;
    return objectSchema(query ? ((jsonSchemaOf(query).properties as Record<string, JsonSchema>) ?? {}) : {});
  }
  const properties = Object.fromEntries(
    Object.entries((recordSchema(declaration).properties as Record<string, JsonSchema>) ?? {}).filter(
      ([, schema]) => schema.readOnly !== true,
    ),
  );
  const required = op !== 'patch' || declaration.requireOnEveryVerb ? requiredFields(declaration) : [];
  return objectSchema(properties, required);
}

/** Every operation the declarations serve, CRUD and custom, in a stable order (resource, then declaration order). */
export function listOperations(declarations: readonly ResourceDeclaration[]): ListedOperation[] {
  const sorted = [...declarations].sort((a, b) => a.name.localeCompare(b.name));
  return sorted.flatMap((declaration) => {
    const legacy = parseLegacyResourceName(declaration.name);
    const path = legacy
      ? legacy.style === 'v2'
        ? `/pbxcore/api/${legacy.key}`
        : `/pbxcore/api/modules/${legacy.key}`
      : `${V3}${declaration.name}`;
    const singleton = declaration.kind === 'singleton';
    const crud: ListedOperation[] = declaration.operations.map((op) => ({
      declaration,
      path,
      name: op,
      verbs: [CRUD_VERBS[op]],
      level: crudLevel(declaration, op),
      requiresId: !singleton && op !== 'getList' && op !== 'create',
      isPublic: false,
      input: crudInput(declaration, op),
    }));
    const custom: ListedOperation[] = Object.entries(declaration.customMethods ?? {}).map(([name, method]) => ({
      declaration,
      path,
      name,
      verbs: method.verbs,
      level: method.level,
      requiresId: method.scope === 'resource',
      isPublic: method.public === true,
      input: method.input ? jsonSchemaOf(method.input) : objectSchema({}),
    }));
    return [...crud, ...custom];
  });
}
