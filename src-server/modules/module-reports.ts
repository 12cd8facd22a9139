import { z } from 'zod';
import { defineSetting } from '../storage/settings.ts';
import { MODULES_SETTING_KEY } from './install.ts';
import type { ModuleReport } from './types.ts';

const moduleReport: z.ZodType<ModuleReport> = z.object({
  name: z.string(),
  slug: z.string().nullable(),
  version: z.string().nullable(),
  style: z.enum(['v1', 'v2', 'v3']).nullable(),
  description: z.string(),
  dir: z.string(),
  bundled: z.boolean(),
  status: z.enum(['loaded', 'failed']),
  error: z.string().nullable(),
  paths: z.array(z.string()),
});

/** What installModules found at start, for the `modules` resource (workers never load modules' status). */
export const moduleReports = defineSetting(MODULES_SETTING_KEY, z.array(moduleReport), []);
