import { z } from 'zod';
import type { FieldDef } from './types.ts';

type Options = Omit<FieldDef, 'schema' | 'storage' | 'sanitize'> & { sanitize?: FieldDef['sanitize'] };

const trimString = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : v);

/**
 * The API's one flag rule, for JSON bodies, form bodies and query strings alike: true, false, 1, 0
 * and the strings "true", "false", "1", "0" (forms and query strings carry only strings). Anything
 * else ("True", "yes", "on", "", 2, null, [], {}) is no flag: the caller gets 422 naming the field,
 * because a guess could turn a dry run into a real one. Absent is false.
 */
const FLAG_FORMS = new Map<unknown, boolean>([
  [true, true],
  [1, true],
  ['true', true],
  ['1', true],
  [false, false],
  [0, false],
  ['false', false],
  ['0', false],
]);

/** What a refused flag value gets, after the field's name. */
export const FLAG_MESSAGE = 'must be true or false (or 1 or 0).';

/** The boolean an accepted flag form stands for; undefined for anything else. */
export const flagValue = (value: unknown): boolean | undefined => FLAG_FORMS.get(value);

/** A field's sanitiser: an accepted flag form becomes its boolean, anything else stays as sent for the schema to refuse. */
const toBoolean = (v: unknown): unknown => flagValue(v) ?? v;

/**
 * A flag in a custom method's declared input (its body, or its query string for GET): the forms of
 * the flag rule and nothing else, parsed to the boolean they stand for (`ctx.input.flag`).
 */
export const flagInput = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal([1, 0])], { error: FLAG_MESSAGE })
    .transform((form) => flagValue(form) === true);

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
      schema: z.boolean({ error: FLAG_MESSAGE }),
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
