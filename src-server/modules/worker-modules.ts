import type { ResourceRegistry } from '../resource-kit/registry.ts';
import { importModule, MODULE_LOAD_TIMEOUT_MS, moduleDefinitions, withTimeout } from './load.ts';
import type { ModuleEntry } from './types.ts';

let workerRegistry: ResourceRegistry | undefined;
let workerEntries: readonly ModuleEntry[] = [];

/**
 * Worker side of module loading: imports the files the web thread accepted and adds their
 * resources to this worker's registry. A module that fails here (it loaded in the web thread a
 * moment ago) is left out; its jobs then fail and are parked like any failing job.
 */
export async function loadWorkerModules(
  entries: readonly ModuleEntry[],
  registry: ResourceRegistry,
  timeoutMs = MODULE_LOAD_TIMEOUT_MS,
): Promise<void> {
  workerRegistry = registry;
  const loaded: ModuleEntry[] = [];
  for (const entry of entries) {
    try {
      const exported = await withTimeout(
        importModule(entry),
        timeoutMs,
        () => new Error(`it did not finish loading within ${timeoutMs} ms`),
      );
      for (const definition of moduleDefinitions(entry, exported)) registry.add(definition);
      loaded.push(entry);
    } catch (error) {
      process.emitWarning(
        `module ${entry.name} failed to load in a worker: ${(error as Error)?.message ?? String(error)}`,
      );
    }
  }
  workerEntries = loaded;
}

/** This worker's registry and modules, for actions that describe the whole API (openapi). */
export function workerCatalog(): { registry: ResourceRegistry | undefined; entries: readonly ModuleEntry[] } {
  return { registry: workerRegistry, entries: workerEntries };
}
