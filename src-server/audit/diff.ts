import { isSecretName, MASKED, maskChanges } from '../storage/secret-mask.ts';

/**
 * The masked field diff of one write, computed generically from a resource's declared fields:
 * the record before and after (both read with sensitive fields visible) and the request body.
 * A secret (a field declared writeOnly or sensitive, or named like a password, secret, token or
 * key) never appears, at any depth: it shows as MASKED when it was written or changed.
 */

export { MASKED, maskChanges };

/** One changed field: `before` is absent for a create, `after` for a delete. */
export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

/** What the diff needs of a declared field. */
export interface DiffField {
  writeOnly?: boolean;
  sensitive?: boolean;
}

/** Whether a field's value must never be recorded. */
export function isSecretField(name: string, def: DiffField | undefined): boolean {
  return Boolean(def?.writeOnly || def?.sensitive) || isSecretName(name);
}

/** The names of every declared write-only or sensitive field: secrets wherever they are nested (a backup's `config.ami.secret`). */
export function declaredSecretNames(declarations: Iterable<{ fields: Record<string, DiffField> }>): Set<string> {
  const names = new Set<string>();
  for (const declaration of declarations) {
    for (const [name, def] of Object.entries(declaration.fields)) if (def.writeOnly || def.sensitive) names.add(name);
  }
  return names;
}

const plain = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes of a write. `before` is null for a create (and for custom methods), `after` null for
 * a delete. Without either record (a custom method), the written body fields are the change.
 */
export function auditDiff(
  fields: Record<string, DiffField>,
  before: unknown,
  after: unknown,
  body: unknown,
  secretNames: ReadonlySet<string> = new Set(),
): FieldChange[] {
  return maskChanges(fieldChanges(fields, before, after, body), secretNames);
}

/** The changes field by field, top-level secrets (by declaration and by name) already masked. */
function fieldChanges(
  fields: Record<string, DiffField>,
  before: unknown,
  after: unknown,
  body: unknown,
): FieldChange[] {
  const old = plain(before);
  const now = plain(after);
  const written = plain(body) ?? {};
  const changes: FieldChange[] = [];
  const secret = (name: string) => isSecretField(name, fields[name]);
  if (!old && !now) {
    for (const [name, value] of Object.entries(written))
      changes.push({ field: name, after: secret(name) ? MASKED : value });
    return changes;
  }
  const names = new Set([...Object.keys(old ?? {}), ...Object.keys(now ?? {})]);
  // A write-only field is never read back: the body says whether it was written.
  for (const name of Object.keys(written)) if (fields[name]?.writeOnly && (now || !old)) names.add(name);
  for (const name of names) {
    const hasBefore = old !== null && name in old;
    const hasAfter = now !== null && name in now;
    if (fields[name]?.writeOnly && name in written && now) {
      if (written[name] !== null && written[name] !== undefined && written[name] !== '')
        changes.push({ field: name, after: MASKED });
      continue;
    }
    if (hasBefore && hasAfter && same(old![name], now![name])) continue;
    if (!hasBefore && !hasAfter) continue;
    const change: FieldChange = { field: name };
    if (secret(name)) {
      if (hasAfter) change.after = MASKED;
      else change.before = MASKED;
    } else {
      if (old) change.before = hasBefore ? old[name] : null;
      if (now) change.after = hasAfter ? now[name] : null;
    }
    changes.push(change);
  }
  return changes;
}
