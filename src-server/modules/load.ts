import { pathToFileURL } from 'node:url';
import type { ActionHandler, ResourceActions, ResourceDeclaration, ResourceDefinition } from '../resource-kit/types.ts';
import { ANY_INPUT, ANY_OUTPUT } from '../resource-kit/contract.ts';
import { moduleSdk } from './sdk.ts';
import type { ModuleEntry, ModuleExports } from './types.ts';
import { ACTION_NAME, routeLevel } from './validate.ts';

/**
 * v1 and v2 routes run in workers as resources under names the v3 grammar can never produce
 * (they hold ":"), so the worker's ordinary dispatch serves them.
 */
export const legacyResourceName = (entry: Pick<ModuleEntry, 'style' | 'name' | 'slug'>): string =>
  entry.style === 'v1' ? `module-v1:${entry.name}` : `module-v2:${entry.slug}`;

/** The reverse of legacyResourceName: which v1 module or v2 slug a worker-side resource serves. */
export function parseLegacyResourceName(name: string): { style: 'v1' | 'v2'; key: string } | undefined {
  const match = /^module-(v1|v2):(.+)$/.exec(name);
  return match ? { style: match[1] as 'v1' | 'v2', key: match[2]! } : undefined;
}

/** Imports a module entry; `register(sdk)` is called when exported, otherwise the named exports are used. */
export async function importModule(entry: ModuleEntry): Promise<ModuleExports> {
  const mod = (await import(pathToFileURL(entry.entryFile).href)) as ModuleExports & { register?: unknown };
  if (typeof mod.register === 'function') {
    const registered: unknown = await (mod.register as (sdk: typeof moduleSdk) => unknown)(moduleSdk);
    if (typeof registered !== 'object' || registered === null) throw new Error('register(sdk) must return an object.');
    return registered as ModuleExports;
  }
  return mod;
}

/** The resources a module adds to a registry: its own (v3) or one wrapper for its routes (v1, v2). */
export function moduleDefinitions(entry: ModuleEntry, exported: ModuleExports): ResourceDefinition[] {
  if (entry.style === 'v3') return (exported.resources ?? []).map(withContractDefaults);
  return [legacyDefinition(entry, exported)];
}

/** A module's custom methods may leave out their schemas: those take and answer anything, as before. */
function withContractDefaults(definition: ResourceDefinition): ResourceDefinition {
  const methods = definition.declaration.customMethods;
  if (!methods) return definition;
  for (const method of Object.values(methods)) {
    method.input ??= ANY_INPUT;
    method.output ??= ANY_OUTPUT;
  }
  return definition;
}

function legacyDefinition(entry: ModuleEntry, exported: ModuleExports): ResourceDefinition {
  const declaration: ResourceDeclaration = {
    name: legacyResourceName(entry),
    description: `Routes of module ${entry.name} (${entry.style}).`,
    processor: entry.name,
    security: { permission: `Module${entry.name}`, channels: ['localhost', 'bearer_token'] },
    fields: {},
    operations: [],
    customMethods: {},
  };
  if (entry.style === 'v2') {
    const custom: Record<string, ActionHandler> = {};
    for (const route of exported.routes ?? []) {
      declaration.customMethods![route.action] = {
        verbs: route.methods,
        scope: 'collection',
        level: routeLevel(route),
        public: route.public === true,
        description: route.description,
        input: route.input ?? ANY_INPUT,
        output: route.output ?? ANY_OUTPUT,
        ...(route.queryJoinsBody ? { queryJoinsBody: true } : {}),
      };
      custom[route.action] = route.handler;
    }
    return { declaration, actions: { custom } };
  }
  // v1: one callback answers every action name; the null prototype keeps "constructor" and
  // friends from resolving to Object's own members in the worker's handler lookup.
  // Public actions are listed as custom methods so that routing and OpenAPI read them like v2's.
  for (const action of exported.publicActions ?? []) {
    declaration.customMethods![action] = {
      verbs: ['GET', 'POST'],
      scope: 'collection',
      level: 'READ',
      public: true,
      input: ANY_INPUT,
      output: ANY_OUTPUT,
    };
  }
  const callback = exported.callback!;
  const custom = new Proxy(Object.create(null) as Record<string, ActionHandler>, {
    get: (_target, key) => (typeof key === 'string' && ACTION_NAME.test(key) ? callback : undefined),
  });
  const actions = Object.assign(Object.create(null) as ResourceActions, { custom });
  return { declaration, actions };
}

/** How long one module may take to load before it is skipped (start-up must not hang on it). */
export const MODULE_LOAD_TIMEOUT_MS = 10_000;

/** Rejects with `timeoutError()` when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, timeoutError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
