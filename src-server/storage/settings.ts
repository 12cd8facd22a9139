import { z } from 'zod';
import type { Db } from './database.ts';

/**
 * One entry of the `settings` table (key → JSON text): its key, the zod schema of its value and the
 * value read when it is absent or invalid. Declared once, with `defineSetting`, by the module that
 * owns it; reading it through `readSetting` gives the schema's type, never a cast.
 */
export interface Setting<Schema extends z.ZodType> {
  readonly key: string;
  readonly schema: Schema;
  readonly fallback: z.output<Schema>;
}

/** Declares a setting: the owning module's key, schema and default. */
export function defineSetting<Schema extends z.ZodType>(
  key: string,
  schema: Schema,
  fallback: z.output<Schema>,
): Setting<Schema> {
  return { key, schema, fallback };
}

/** A settings object whose fields are checked elsewhere (a singleton's save rules): any JSON object. */
export const STORED_FIELDS = z.record(z.string(), z.unknown());

/** A singleton's stored fields under `key` ({} when absent); its declaration's save rules check them on write. */
export function storedFields(key: string): Setting<typeof STORED_FIELDS> {
  return defineSetting(key, STORED_FIELDS, {});
}

/** The stored text last warned about, per key: a bad value is reported once, not at every read. */
const warned = new Map<string, string>();

/**
 * The setting's stored value, checked against its schema. Absent reads as the default; text that is
 * not JSON, or JSON of the wrong shape, reads as the default with a warning (never a throw: a bad row
 * must not stop the server or a worker).
 */
export function readSetting<Schema extends z.ZodType>(db: Db, setting: Setting<Schema>): z.output<Schema> {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(setting.key) as { value: string } | undefined;
  if (!row) return structuredClone(setting.fallback);
  let stored: unknown;
  try {
    stored = JSON.parse(row.value);
  } catch {
    return invalid(setting, row.value, 'its stored text is not JSON');
  }
  const parsed = setting.schema.safeParse(stored);
  return parsed.success ? parsed.data : invalid(setting, row.value, z.prettifyError(parsed.error));
}

function invalid<Schema extends z.ZodType>(setting: Setting<Schema>, text: string, why: string): z.output<Schema> {
  if (warned.get(setting.key) !== text) {
    warned.set(setting.key, text);
    process.emitWarning(`setting ${setting.key} read as its default: ${why}`, { code: 'PBX_INVALID_SETTING' });
  }
  return structuredClone(setting.fallback);
}

export function writeSetting(db: Db, key: string, value: unknown): void {
  db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, JSON.stringify(value));
}
