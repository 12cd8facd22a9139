import { z } from 'zod';
import type { FieldDef, ResourceDeclaration } from '../resource-kit/types.ts';
import type { JsonSchema } from './components.ts';

/** JSON Schema of a zod schema (input side by default); anything zod cannot express becomes `{}` rather than an error. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  try {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
    }) as JsonSchema;
    return rest;
  } catch {
    return {};
  }
}

function fieldSchema(def: FieldDef): JsonSchema {
  return {
    ...jsonSchemaOf(def.schema),
    ...(def.description ? { description: def.description } : {}),
    ...(def.readOnly ? { readOnly: true } : {}),
    ...(def.writeOnly ? { writeOnly: true } : {}),
    ...(def.default !== undefined && typeof def.default !== 'function' ? { default: def.default } : {}),
    ...(def.sensitive ? { 'x-sensitive': true } : {}),
  };
}

/** The record schema of a resource: read-only and write-only fields are marked as such. */
export function recordSchema(declaration: ResourceDeclaration): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const idField = declaration.idField ?? 'id';
  if (declaration.kind !== 'singleton' && !(idField in declaration.fields))
    properties[idField] = { readOnly: true, description: 'Record id.' };
  for (const [name, def] of Object.entries(declaration.fields)) properties[name] = fieldSchema(def);
  return { type: 'object', description: declaration.description, properties };
}

/** Fields POST and PUT must carry (PATCH may omit them). */
export function requiredFields(declaration: ResourceDeclaration): string[] {
  return Object.entries(declaration.fields)
    .filter(([, def]) => def.required && !def.readOnly)
    .map(([name]) => name);
}

/** Query parameters from a GET custom method's object input schema. */
export function queryParameters(input: z.ZodType | undefined): Array<Record<string, unknown>> {
  if (!input) return [];
  const schema = jsonSchemaOf(input);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}
