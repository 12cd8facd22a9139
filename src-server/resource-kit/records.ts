import type { FieldDef, ResourceDeclaration } from './types.ts';

const entriesCache = new WeakMap<ResourceDeclaration, Array<[string, FieldDef]>>();

/** The declaration's fields as entries, computed once per declaration (this runs per row). */
export function fieldEntries(declaration: ResourceDeclaration): Array<[string, FieldDef]> {
  let entries = entriesCache.get(declaration);
  if (!entries) entriesCache.set(declaration, (entries = Object.entries(declaration.fields)));
  return entries;
}

/** Converts a SQLite row to field values (booleans, JSON) without any visibility filtering. */
export function rowToValues(declaration: ResourceDeclaration, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of fieldEntries(declaration)) {
    if (!(name in row)) continue;
    const raw = row[name];
    if (def.storage === 'boolean') out[name] = raw === 1 || raw === true;
    else if (def.storage === 'json') out[name] = typeof raw === 'string' ? JSON.parse(raw) : raw;
    else out[name] = raw;
  }
  return out;
}

/** Converts field values to SQLite parameters. */
export function valuesToRow(
  declaration: ResourceDeclaration,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const def = declaration.fields[name];
    if (!def) continue;
    if (def.storage === 'boolean') out[name] = value ? 1 : 0;
    else if (def.storage === 'json') out[name] = JSON.stringify(value ?? null);
    else out[name] = value ?? null;
  }
  return out;
}

/** The read shape: write-only fields never, sensitive ones only with the SENSITIVE level. */
export function toPublicRecord(
  declaration: ResourceDeclaration,
  values: Record<string, unknown>,
  canReadSensitive: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of fieldEntries(declaration)) {
    if (def.writeOnly || (def.sensitive && !canReadSensitive)) continue;
    if (name in values) out[name] = values[name];
  }
  return out;
}
