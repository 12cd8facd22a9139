import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import type { ModuleManifest } from './types.ts';

export const MANIFEST_FILE = 'module.json';
export const MODULE_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
export const MODULE_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

const manifestSchema = z.object({
  name: z.string().regex(MODULE_NAME, 'must be letters and digits, starting with a letter (at most 64)'),
  version: z.string().min(1).max(64),
  style: z.enum(['v1', 'v2', 'v3']),
  entry: z.string().regex(/\.m?js$/, 'must be an ES module file ending in .js or .mjs'),
  slug: z.string().regex(MODULE_SLUG, 'must be lowercase words joined by "-"').max(64).optional(),
  description: z.string().max(500).optional(),
});

/** `ModuleExampleTasks` -> `example-tasks`: the default URL segment of a module. */
export function slugOf(name: string): string {
  return name
    .replace(/^Module(?=[A-Z])/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

export type ManifestOutcome =
  | { ok: true; manifest: ModuleManifest; slug: string; entryFile: string }
  | { ok: false; error: string };

/** Reads and checks `<dir>/module.json`: the name must match the folder, the entry must stay inside it. */
export function readManifest(dir: string, folderName: string): ManifestOutcome {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8'));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? 'is missing'
        : `is not valid JSON (${(error as Error).message})`;
    return { ok: false, error: `${MANIFEST_FILE} ${reason}.` };
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'manifest'} ${i.message}`);
    return { ok: false, error: `${MANIFEST_FILE} is invalid: ${problems.join('; ')}.` };
  }
  const manifest = parsed.data;
  if (manifest.name !== folderName) {
    return {
      ok: false,
      error: `${MANIFEST_FILE} names the module "${manifest.name}" but its folder is "${folderName}".`,
    };
  }
  const entryFile = resolve(dir, manifest.entry);
  const inside = relative(dir, entryFile);
  if (inside.startsWith('..') || isAbsolute(inside))
    return { ok: false, error: `The entry "${manifest.entry}" is outside the module folder.` };
  return { ok: true, manifest, slug: manifest.slug ?? slugOf(manifest.name), entryFile };
}
