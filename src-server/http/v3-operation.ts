import { crudLevel } from '../resource-kit/levels.ts';
import type { CrudOperation, HttpVerb, Level, ResourceDeclaration } from '../resource-kit/types.ts';
import { methodNotAllowed, notFound } from '../wire/errors.ts';
import type { V3Path } from '../wire/v3-path.ts';

export interface ResolvedOperation {
  operation: string;
  isCustom: boolean;
  level: Level;
  isPublic: boolean;
}

const COLLECTION_VERBS: Partial<Record<HttpVerb, CrudOperation>> = { GET: 'getList', POST: 'create' };
const RECORD_VERBS: Partial<Record<HttpVerb, CrudOperation>> = {
  GET: 'getRecord',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};
const SINGLETON_VERBS: Partial<Record<HttpVerb, CrudOperation>> = { GET: 'getRecord', PUT: 'update', PATCH: 'patch' };

/** HEAD is answered as GET without a body. */
export function verbOf(method: string): HttpVerb | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  return (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).find((v) => v === m);
}

/** Maps a parsed path and verb to the declared operation: 405 when it is not declared, 404 for ids on singletons. */
export function resolveOperation(
  decl: ResourceDeclaration,
  path: V3Path,
  verb: HttpVerb | undefined,
): ResolvedOperation {
  if (path.method) {
    const scope = path.id === undefined ? 'collection' : 'resource';
    const method = decl.customMethods?.[path.method];
    if (!method || method.scope !== scope) {
      throw methodNotAllowed(
        `Custom method "${path.method}" is not allowed on ${scope === 'resource' ? 'a record of ' : ''}${decl.name}.`,
        [],
      );
    }
    if (!verb || !method.verbs.includes(verb)) {
      throw methodNotAllowed(
        `${verb ?? 'This HTTP method'} is not allowed for ${decl.name}:${path.method}; use ${method.verbs.join(' or ')}.`,
        method.verbs,
      );
    }
    return { operation: path.method, isCustom: true, level: method.level, isPublic: method.public === true };
  }

  const singleton = decl.kind === 'singleton';
  if (singleton && path.id !== undefined)
    throw notFound(`${decl.name} is a single settings object; it has no records by id.`);
  const table = singleton ? SINGLETON_VERBS : path.id === undefined ? COLLECTION_VERBS : RECORD_VERBS;
  const allowed = Object.entries(table)
    .filter(([, op]) => decl.operations.includes(op))
    .map(([v]) => v);
  const operation = verb ? table[verb] : undefined;
  if (!operation || !decl.operations.includes(operation)) {
    throw methodNotAllowed(
      `${verb ?? 'This HTTP method'} is not allowed on ${path.id === undefined ? decl.name : `a record of ${decl.name}`}.`,
      allowed,
    );
  }
  return {
    operation,
    isCustom: false,
    level: crudLevel(decl, operation),
    isPublic: false,
  };
}
