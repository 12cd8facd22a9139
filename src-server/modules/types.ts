import type { z } from 'zod';
import type { ActionHandler, HttpVerb, Level, ResourceDefinition } from '../resource-kit/types.ts';
import type { Db } from '../storage/database.ts';
import type { ModuleEntry, ModuleStyle } from '../wire/types.ts';

/** v3: declared resources; v2: a route table; v1: one callback for every action. */
export type { ModuleEntry, ModuleStyle };

/** `module.json` in `<dataDir>/modules/<Name>/`. */
export interface ModuleManifest {
  name: string;
  version: string;
  style: ModuleStyle;
  /** ES module file, relative to the module folder. */
  entry: string;
  /** URL segment; defaults to the kebab-case name without a leading "Module". */
  slug?: string;
  description?: string;
}

/** One row of a v2 route table, served at `/pbxcore/api/{module-slug}/{action}`. */
export interface ModuleRoute {
  action: string;
  methods: HttpVerb[];
  handler: ActionHandler;
  /** Public routes skip authentication. */
  public?: boolean;
  /** Access level for Bearer callers; default READ for GET, WRITE otherwise. */
  level?: Level;
  description?: string;
  /** The body (for GET: query string) schema; the action reads the parsed value as `ctx.input`. Anything when absent. */
  input?: z.ZodType;
  /** The shape of `data` in a successful answer (checked in development and tests). Anything when absent. */
  output?: z.ZodType;
  /** The query string's parameters join the body in `ctx.input`. */
  queryJoinsBody?: true;
}

/** What a module entry provides, by style (either as named exports or returned by `register(sdk)`). */
export interface ModuleExports {
  /** v3 */
  resources?: ResourceDefinition[];
  /** v2 */
  routes?: ModuleRoute[];
  /** v1: called for every `/pbxcore/api/modules/{Name}/{action}`; `ctx.operation` is the action. */
  callback?: ActionHandler;
  /** v1: actions that need no authentication. */
  publicActions?: string[];
  /** Any style: creates the module's tables; runs once in the web thread at start, before workers serve it. */
  install?: (db: Db) => void | Promise<void>;
}

export type ModuleStatus = 'loaded' | 'failed';

/** A discovered module and what became of it; the `modules` resource lists these. */
export interface ModuleReport {
  name: string;
  slug: string | null;
  version: string | null;
  style: ModuleStyle | null;
  description: string;
  /** Folder it was found in. */
  dir: string;
  bundled: boolean;
  status: ModuleStatus;
  /** Why it was skipped; null when loaded. */
  error: string | null;
  /** Paths it serves, e.g. `/pbxcore/api/v3/module-example/tasks`. */
  paths: string[];
}
