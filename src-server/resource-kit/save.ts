import type { FieldDef, HttpVerb, ResourceDeclaration } from './types.ts';
import { defaultOf } from './fields.ts';

export type SaveMode = 'create' | 'update' | 'patch';

export type SaveOutcome =
  | {
      ok: true;
      /** Fields to write: all of them for create/update, only those present for patch. */ values: Record<
        string,
        unknown
      >;
      complete: Record<string, unknown>;
    }
  | { ok: false; errors: string[] };

export interface SaveInput {
  declaration: ResourceDeclaration;
  mode: SaveMode;
  verb: HttpVerb;
  body: unknown;
  /** The stored record (read shape, with write-only values) for update/patch. */
  existing?: Record<string, unknown>;
  /** Cross-field checks on the complete record after defaults (SPEC rule 5). */
  validate?: (complete: Record<string, unknown>) => string[];
  /**
   * Values must already have their field's type (imports of a backup, which this server wrote):
   * `"77"` for a number or `"true"` for a boolean is refused, not converted. Strings are still trimmed.
   */
  strictTypes?: boolean;
}

/** In strict mode a sanitiser runs only where it cannot change the type: on a text field's string. */
function sanitizes(def: FieldDef, value: unknown, strict: boolean): boolean {
  if (!def.sanitize) return false;
  return !strict || (def.storage === 'text' && typeof value === 'string');
}

const isMissing = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The SPEC's save semantics, rules 1-5: sanitise, decide the operation, enforce required fields
 * (POST and PUT only, unless the resource is an older action), apply defaults on create, then
 * validate the complete dataset. Unknown and read-only fields are ignored, never echoed back.
 */
export function prepareSave(input: SaveInput): SaveOutcome {
  const { declaration, mode, verb, existing } = input;
  if (typeof input.body !== 'object' || input.body === null || Array.isArray(input.body)) {
    return { ok: false, errors: ['The request body must be a JSON object.'] };
  }
  const body = input.body as Record<string, unknown>;
  const writable = Object.entries(declaration.fields).filter(([, def]) => !def.readOnly);

  // Rule 1: sanitise what is present.
  const present: Record<string, unknown> = {};
  for (const [name, def] of writable) {
    if (!(name in body)) continue;
    present[name] = sanitizes(def, body[name], input.strictTypes === true) ? def.sanitize!(body[name]) : body[name];
  }

  // Rule 3: required fields on POST and PUT only (older actions: every verb).
  const errors: string[] = [];
  const enforceRequired = verb === 'POST' || verb === 'PUT' || declaration.requireOnEveryVerb === true;
  if (enforceRequired) {
    for (const [name, def] of writable) {
      if (!def.required || !isMissing(present[name])) continue;
      // On update of a write-only field (a secret), keeping the stored value is not "missing".
      if (mode !== 'create' && def.writeOnly && existing && !isMissing(existing[name])) continue;
      errors.push(`${name} is required.`);
    }
  }
  if (errors.length) return { ok: false, errors };

  // Rule 4: defaults on create; a full replace (PUT) resets absent optional fields the same way.
  let values: Record<string, unknown>;
  if (mode === 'patch') {
    values = present;
  } else {
    values = {};
    for (const [name, def] of writable) {
      if (name in present && present[name] !== undefined) values[name] = present[name];
      else if (mode === 'update' && def.writeOnly && existing) values[name] = existing[name];
      else if (def.default !== undefined) values[name] = defaultOf(def);
    }
  }

  // Rule 5: validate the complete dataset.
  const complete = { ...(mode === 'create' ? {} : existing), ...values };
  for (const [name, def] of writable) {
    if (!(name in complete) || complete[name] === undefined) continue;
    // A write-only value kept from the stored record was checked when written (and is stored sealed).
    if (def.writeOnly && !(name in present)) continue;
    const parsed = def.schema.safeParse(complete[name]);
    if (!parsed.success) {
      errors.push(
        ...parsed.error.issues.map((i) => `${name}${i.path.length ? '.' + i.path.join('.') : ''}: ${i.message}`),
      );
    } else {
      complete[name] = parsed.data;
      if (name in values) values[name] = parsed.data;
    }
  }
  if (!errors.length && input.validate) errors.push(...input.validate(complete));
  return errors.length ? { ok: false, errors } : { ok: true, values, complete };
}
