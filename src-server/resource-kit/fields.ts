import { z } from 'zod';
import type { FieldDef } from './types.ts';

type Options = Omit<FieldDef, 'schema' | 'storage' | 'sanitize'> & { sanitize?: FieldDef['sanitize'] };

const trimString = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : v);

/** Accepts true/false, 1/0 and their string forms (form posts send strings). */
export const toBoolean = (v: unknown): unknown => {
  if (v === 'true' || v === '1' || v === 1 || v === 'on') return true;
  if (v === 'false' || v === '0' || v === 0 || v === '' || v === 'off') return false;
  return v;
};

const toInteger = (v: unknown): unknown => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v);

/** Text of at most `max` characters on one line (no CR or LF): names, logins and secrets that go into other files. */
export const oneLineText = (max: number, tooLong?: string) =>
  z
    .string()
    .max(max, tooLong)
    .regex(/^[^\r\n]*$/, 'must be one line');

/** Field constructors: each pairs a schema with its sanitiser and storage kind. */
export const field = {
  text(schema: z.ZodType = z.string(), options: Options = {}): FieldDef {
    return { sanitize: trimString, ...options, schema, storage: 'text' };
  },
  boolean(options: Options = {}): FieldDef {
    return {
      sanitize: toBoolean,
      ...options,
      schema: z.boolean({ error: 'must be true or false' }),
      storage: 'boolean',
    };
  },
  integer(schema: z.ZodType = z.number().int(), options: Options = {}): FieldDef {
    return { sanitize: toInteger, ...options, schema, storage: 'integer' };
  },
  json(schema: z.ZodType, options: Options = {}): FieldDef {
    return { ...options, schema, storage: 'json' };
  },
  /** The whole-number id the server assigns to a record: read-only. */
  recordId(description?: string): FieldDef {
    return field.integer(z.number().int(), { readOnly: true, ...(description ? { description } : {}) });
  },
};

/** A field's declared default: a function default is called, so each record gets its own value. */
export function defaultOf(def: FieldDef): unknown {
  return typeof def.default === 'function' ? (def.default as () => unknown)() : def.default;
}

/** The declared defaults of `fields` (of the `names` given, in their order; else of every field that has one). */
export function declaredDefaults(
  fields: Record<string, FieldDef>,
  names: readonly string[] = Object.keys(fields),
): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const name of names) {
    const def = fields[name];
    if (def?.default !== undefined) defaults[name] = defaultOf(def);
  }
  return defaults;
}
