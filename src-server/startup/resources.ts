import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/schema.ts';
import { installModules, type InstalledModules } from '../modules/install.ts';
import { importResourceModule, ResourceRegistry } from '../resource-kit/registry.ts';
import { coreResources } from '../resources/index.ts';
import type { Db } from '../storage/database.ts';

export interface ResourceArea {
  registry: ResourceRegistry;
  modules: InstalledModules;
  /** The host's resource files, absolute: workers import the same. */
  resourceModules: string[];
}

/** The core resources, the host's resource files, then the extension modules (a broken module is skipped). */
export async function loadResources(
  config: ServerConfig,
  deps: { dataDir: string; db: Db; logger: Logger },
): Promise<ResourceArea> {
  const resourceModules = config.resourceModules.map((m) => resolve(m));
  const registry = new ResourceRegistry(coreResources);
  for (const file of resourceModules)
    for (const definition of await importResourceModule(file)) registry.add(definition);
  const modules = await installModules({
    ...deps,
    registry,
    loadTimeoutMs: config.moduleLoadTimeoutMs,
    examples: config.exampleModules,
  });
  return { registry, modules, resourceModules };
}
