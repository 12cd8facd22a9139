/**
 * The boolean flags of the served OpenAPI document (test-only): every writable request-body
 * property declared boolean (alone or in an `anyOf`), every map of booleans (`currentRules`), and
 * every query parameter that is boolean or the string forms of one. A flag added to a declaration
 * is found here with no list to update.
 */

interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  readOnly?: boolean;
  properties?: Record<string, SchemaObject>;
  additionalProperties?: SchemaObject | boolean;
  allOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
}

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
  schema?: SchemaObject;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, SchemaObject>; parameters?: Record<string, Parameter> };
}

/** Where a flag is sent: a JSON body property, a map of them (`{SIP: flag}`), or a query parameter. */
export type FlagPlace = 'body' | 'body-map' | 'query';

export interface FlagTarget {
  method: string;
  /** Path template from the document, with `{param}` placeholders. */
  template: string;
  name: string;
  place: FlagPlace;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const FLAG_STRINGS = new Set(['true', 'false', '1', '0']);

function resolve<T extends { $ref?: string }>(
  document: OpenApiDocument,
  value: T | undefined,
  depth = 0,
): T | undefined {
  if (!value?.$ref || depth > 5) return value;
  const [, , section, name] = value.$ref.split('/');
  const components = document.components as Record<string, Record<string, T>> | undefined;
  return resolve(document, components?.[section!]?.[name!], depth + 1);
}

/** A schema that takes a boolean, or only the string forms of one (a query parameter). */
function isFlagSchema(document: OpenApiDocument, raw: SchemaObject | undefined, depth = 0): boolean {
  const schema = resolve(document, raw);
  if (!schema || depth > 5) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('boolean')) return true;
  if (schema.enum?.length && schema.enum.every((value) => FLAG_STRINGS.has(String(value)))) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((part) => isFlagSchema(document, part, depth + 1));
}

/** Writable top-level properties of a body schema (`$ref`, `allOf` and `anyOf` followed). */
function bodyProperties(document: OpenApiDocument, raw: SchemaObject | undefined, depth = 0): [string, SchemaObject][] {
  const schema = resolve(document, raw);
  if (!schema || depth > 5) return [];
  const parts = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [
    ...parts.flatMap((part) => bodyProperties(document, part, depth + 1)),
    ...Object.entries(schema.properties ?? {}).filter(([, property]) => !resolve(document, property)?.readOnly),
  ];
}

/** Every flag of the document's operations, once per (method, path, name, place). */
export function flagsFromOpenApi(document: OpenApiDocument): FlagTarget[] {
  const targets = new Map<string, FlagTarget>();
  const add = (target: FlagTarget) =>
    targets.set(`${target.method} ${target.template} ${target.name} ${target.place}`, target);
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        | { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: SchemaObject }> } }
        | undefined;
      if (!operation) continue;
      const verb = method.toUpperCase();
      for (const raw of operation.parameters ?? []) {
        const parameter = resolve(document, raw);
        if (parameter?.in === 'query' && parameter.name && isFlagSchema(document, parameter.schema))
          add({ method: verb, template, name: parameter.name, place: 'query' });
      }
      const json = operation.requestBody?.content?.['application/json']?.schema;
      for (const [name, property] of bodyProperties(document, json)) {
        const resolved = resolve(document, property);
        if (isFlagSchema(document, resolved)) add({ method: verb, template, name, place: 'body' });
        else if (
          typeof resolved?.additionalProperties === 'object' &&
          isFlagSchema(document, resolved.additionalProperties)
        )
          add({ method: verb, template, name, place: 'body-map' });
      }
    }
  }
  return [...targets.values()];
}
