import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { ResourceRegistry } from '../resource-kit/registry.ts';
import type { ResourceDeclaration } from '../resource-kit/types.ts';
import type { Db } from '../storage/database.ts';
import { writeSetting } from '../storage/settings.ts';
import { importModule, MODULE_LOAD_TIMEOUT_MS, moduleDefinitions, withTimeout } from './load.ts';
import { readManifest } from './manifest.ts';
import type { ModuleEntry, ModuleExports, ModuleReport } from './types.ts';
import { exportsProblem, MODULE_RESOURCE_NAME } from './validate.ts';

/**
 * The example modules shipped with the product: `resources/modules/` at the package root (from
 * `src-server/modules/` or `out/server/modules/`).
 */
export const BUNDLED_MODULES_DIR = fileURLToPath(
  new URL(
    import.meta.url.endsWith('.ts') ? '../../resources/modules/' : '../../../resources/modules/',
    import.meta.url,
  ),
);
/** First segments under `/pbxcore/api/` that core owns: a v2 module may not take them as its slug. */
export const RESERVED_V2_SLUGS: ReadonlySet<string> = new Set([
  'v1',
  'v2',
  'v3',
  'v4',
  'modules',
  'sip',
  'iax',
  'ami',
  'system',
]);
/** Settings key where the web thread leaves the module reports for the `modules` resource (read in workers). */
export const MODULES_SETTING_KEY = 'modules';

/** A v1 or v2 module the web thread routes; `declaration` is its worker-side resource (routes, levels, public actions). */
export interface LegacyModule {
  entry: ModuleEntry;
  declaration: ResourceDeclaration;
}

export interface InstalledModules {
  reports: ModuleReport[];
  /** Loaded modules: workers import exactly these files. */
  entries: ModuleEntry[];
  legacy: LegacyModule[];
}

export interface InstallOptions {
  dataDir: string;
  /** Core resources are in it already; v3 module resources are added to it. */
  registry: ResourceRegistry;
  db: Db;
  logger: Logger;
  /** Load the bundled example modules (config `exampleModules`); off by default. */
  examples?: boolean;
  /** Defaults to the bundled examples; tests may point elsewhere. */
  bundledDir?: string;
  /** A module whose entry or register() has not finished by then is skipped. */
  loadTimeoutMs?: number;
}

class ModuleSkipped extends Error {}

/**
 * Discovers `<dataDir>/modules/<Name>/` and the bundled modules, loads each, and adds the ones that
 * load cleanly. A module that throws, declares something invalid or clashes with a core path is
 * skipped with a log line and a `failed` report; start-up always continues.
 */
export async function installModules(options: InstallOptions): Promise<InstalledModules> {
  const { registry, db, logger } = options;
  const installed: InstalledModules = { reports: [], entries: [], legacy: [] };
  const v2Slugs = new Map<string, string>();
  const seen = new Set<string>();
  const folders = [
    ...moduleFolders(join(options.dataDir, 'modules')).map((f) => ({ ...f, bundled: false })),
    ...(options.examples
      ? moduleFolders(options.bundledDir ?? BUNDLED_MODULES_DIR).map((f) => ({ ...f, bundled: true }))
      : []),
  ];

  for (const folder of folders) {
    if (seen.has(folder.name)) {
      logger.info(
        { module: folder.name, dir: folder.dir },
        'module: an installed copy takes precedence over the bundled one',
      );
      continue;
    }
    seen.add(folder.name);
    const report: ModuleReport = {
      name: folder.name,
      slug: null,
      version: null,
      style: null,
      description: '',
      dir: folder.dir,
      bundled: folder.bundled,
      status: 'failed',
      error: null,
      paths: [],
    };
    installed.reports.push(report);
    try {
      const manifest = readManifest(folder.dir, folder.name);
      if (!manifest.ok) throw new ModuleSkipped(manifest.error);
      Object.assign(report, {
        slug: manifest.slug,
        version: manifest.manifest.version,
        style: manifest.manifest.style,
        description: manifest.manifest.description ?? '',
      });
      const entry: ModuleEntry = {
        name: folder.name,
        slug: manifest.slug,
        style: manifest.manifest.style,
        entryFile: manifest.entryFile,
      };

      let exported: ModuleExports;
      try {
        const ms = options.loadTimeoutMs ?? MODULE_LOAD_TIMEOUT_MS;
        exported = await withTimeout(
          importModule(entry),
          ms,
          () => new ModuleSkipped(`It did not finish loading within ${ms} ms.`),
        );
      } catch (error) {
        if (error instanceof ModuleSkipped) throw error;
        throw new ModuleSkipped(`It threw while loading: ${(error as Error)?.message ?? String(error)}`);
      }
      const problem = exportsProblem(entry.style, exported);
      if (problem) throw new ModuleSkipped(problem);
      const definitions = moduleDefinitions(entry, exported);
      try {
        new ResourceRegistry(definitions); // declared operations without actions, duplicates
      } catch (error) {
        throw new ModuleSkipped(`Invalid resource: ${(error as Error).message}`);
      }
      const names = definitions.map((d) => d.declaration.name);
      const clash = clashOf(entry, names, registry, v2Slugs);
      if (clash) throw new ModuleSkipped(clash);
      const outside = entry.style === 'v3' && names.find((n) => !MODULE_RESOURCE_NAME.test(n));
      if (outside)
        throw new ModuleSkipped(`Invalid resource "${outside}": module resources are named module-{slug}/{resource}.`);
      try {
        await exported.install?.(db); // awaited in case an author made it async: a rejection must skip, not crash
      } catch (error) {
        throw new ModuleSkipped(`Its install(db) step failed: ${(error as Error)?.message ?? String(error)}`);
      }

      if (entry.style === 'v3') for (const definition of definitions) registry.add(definition);
      else {
        if (entry.style === 'v2') v2Slugs.set(entry.slug, entry.name);
        installed.legacy.push({ entry, declaration: definitions[0]!.declaration });
      }
      installed.entries.push(entry);
      report.status = 'loaded';
      report.paths = pathsOf(
        entry,
        definitions.map((d) => d.declaration),
      );
      logger.info(
        { module: entry.name, style: entry.style, version: report.version, paths: report.paths },
        `module ${entry.name} loaded`,
      );
    } catch (error) {
      // Whatever a module does (odd exports, throwing getters), it is skipped: start-up continues.
      const reason =
        error instanceof ModuleSkipped
          ? error.message
          : `It failed while loading: ${(error as Error)?.message ?? String(error)}`;
      report.error = reason;
      logger.error({ module: folder.name, dir: folder.dir, reason }, `module ${folder.name} skipped: ${reason}`);
    }
  }
  writeSetting(db, MODULES_SETTING_KEY, installed.reports);
  return installed;
}

function moduleFolders(root: string): Array<{ name: string; dir: string }> {
  let names: string[];
  try {
    names = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return []; // no modules folder: nothing installed
  }
  return names.map((name) => ({ name, dir: join(root, name) }));
}

function clashOf(
  entry: ModuleEntry,
  names: string[],
  registry: ResourceRegistry,
  v2Slugs: ReadonlyMap<string, string>,
): string | undefined {
  if (entry.style === 'v3') {
    const taken = names.find((n) => registry.get(n));
    return taken && `Its resource "${taken}" clashes with a resource already served at /pbxcore/api/v3/${taken}.`;
  }
  if (entry.style === 'v2') {
    if (RESERVED_V2_SLUGS.has(entry.slug))
      return `Its slug "${entry.slug}" clashes with the core path /pbxcore/api/${entry.slug}/.`;
    const owner = v2Slugs.get(entry.slug);
    if (owner)
      return `Its slug "${entry.slug}" clashes with module ${owner}, which serves /pbxcore/api/${entry.slug}/ already.`;
  }
  return undefined;
}

function pathsOf(entry: ModuleEntry, declarations: ResourceDeclaration[]): string[] {
  if (entry.style === 'v3') return declarations.map((d) => `/pbxcore/api/v3/${d.name}`);
  if (entry.style === 'v2')
    return Object.keys(declarations[0]!.customMethods ?? {}).map((a) => `/pbxcore/api/${entry.slug}/${a}`);
  return [`/pbxcore/api/modules/${entry.name}/{action}`];
}
