import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ResourceDefinition } from './types.ts';

/** Every resource the server serves, by path name. Built the same way in the web thread and in workers. */
export class ResourceRegistry {
  private readonly byName = new Map<string, ResourceDefinition>();

  constructor(definitions: readonly ResourceDefinition[] = []) {
    for (const d of definitions) this.add(d);
  }

  /** Adds a resource; throws when its name is taken or a declared method (not served on the web thread) has no action. */
  add(definition: ResourceDefinition): void {
    const { declaration, actions } = definition;
    if (this.byName.has(declaration.name)) throw new Error(`Resource "${declaration.name}" is declared twice.`);
    for (const op of declaration.operations) {
      if (!actions[op]) throw new Error(`Resource "${declaration.name}" declares ${op} but has no action for it.`);
    }
    for (const [method, decl] of Object.entries(declaration.customMethods ?? {})) {
      if (!decl.webThread && !actions.custom?.[method])
        throw new Error(`Resource "${declaration.name}" declares :${method} but has no action for it.`);
    }
    this.byName.set(declaration.name, definition);
  }

  get(name: string): ResourceDefinition | undefined {
    return this.byName.get(name);
  }

  all(): ResourceDefinition[] {
    return [...this.byName.values()];
  }
}

/** Imports ES modules that export `resources: ResourceDefinition[]`. */
export async function importResourceModule(file: string): Promise<ResourceDefinition[]> {
  // Node 20 runs no ESM loader hooks in worker threads, so TypeScript modules (tests, running
  // from source) go through tsx's require hook, which does; built .js modules use import().
  const mod = (
    file.endsWith('.ts') ? createRequire(import.meta.url)(file) : await import(pathToFileURL(file).href)
  ) as {
    resources?: ResourceDefinition[];
  };
  if (!Array.isArray(mod.resources)) throw new Error(`${file} does not export a "resources" array.`);
  return mod.resources;
}
