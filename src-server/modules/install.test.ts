import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { coreResources } from '../resources/index.ts';
import { ResourceRegistry } from '../resource-kit/registry.ts';
import type { Db } from '../storage/database.ts';
import { readSetting } from '../storage/settings.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { openTempDb, type TempDb, withTempDir } from '../test-support/temp-db.ts';
import { BUNDLED_MODULES_DIR, installModules } from './install.ts';
import { moduleReports } from './module-reports.ts';

describe('installModules', () => {
  let temp: TempDb;
  let root: string;
  let db: Db;
  const { logger, lines } = captureLogs<{ msg: string; module?: string; reason?: string }>('info');

  const writeModule = (dir: string, name: string, manifest: Record<string, unknown>, source: string) => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(
      join(dir, name, 'module.json'),
      JSON.stringify({ name, version: '2.0.0', entry: 'index.js', ...manifest }),
    );
    writeFileSync(join(dir, name, 'index.js'), source);
  };

  before(() => {
    temp = openTempDb('pbx-install-');
    ({ dir: root, db } = temp);
    const modules = join(root, 'modules');
    writeModule(modules, 'Hangs', { style: 'v1' }, 'export function register() { return new Promise(() => {}); }\n');
    writeModule(
      modules,
      'InstallFails',
      { style: 'v1' },
      "export const callback = () => ({ result: true });\nexport function install() { throw new Error('disk full'); }\n",
    );
    writeModule(
      modules,
      'AsyncInstallFails',
      { style: 'v1' },
      "export const callback = () => ({ result: true });\nexport async function install() { throw new Error('later'); }\n",
    );
    writeModule(
      modules,
      'ThrowingGetter',
      { style: 'v2' },
      "export function register() { return { get routes() { throw new Error('getter'); } }; }\n",
    );
    // Replaces the bundled example of the same name.
    writeModule(
      modules,
      'ExampleCallback',
      { style: 'v1' },
      "export const callback = () => ({ result: true, data: 'mine' });\n",
    );
    writeModule(
      modules,
      'DupSlugA',
      { style: 'v2', slug: 'dup' },
      "export const routes = [{ action: 'a', methods: ['GET'], handler: () => ({ result: true }) }];\n",
    );
    writeModule(
      modules,
      'DupSlugB',
      { style: 'v2', slug: 'dup' },
      "export const routes = [{ action: 'b', methods: ['GET'], handler: () => ({ result: true }) }];\n",
    );
  });
  after(() => temp.dispose());

  it('loads what it can, skips the rest with a log line, and records every report', async () => {
    const registry = new ResourceRegistry(coreResources);
    // Long enough that a module which does finish is never cut off on a loaded machine (at 200 ms one was, in a full run), short
    // enough for the one that hangs.
    const installed = await installModules({
      dataDir: root,
      registry,
      db,
      logger,
      loadTimeoutMs: 1500,
      examples: true,
    });
    const byName = new Map(installed.reports.map((r) => [r.name, r]));

    assert.match(byName.get('Hangs')!.error!, /did not finish loading within 1500 ms/);
    assert.match(byName.get('InstallFails')!.error!, /install\(db\) step failed: disk full/);
    assert.match(byName.get('AsyncInstallFails')!.error!, /install\(db\) step failed: later/);
    assert.match(byName.get('ThrowingGetter')!.error!, /failed while loading: getter/);
    assert.equal(byName.get('DupSlugA')!.status, 'loaded');
    assert.match(byName.get('DupSlugB')!.error!, /clashes with module DupSlugA/);

    const callback = byName.get('ExampleCallback')!;
    assert.deepEqual(
      [callback.status, callback.bundled, callback.version],
      ['loaded', false, '2.0.0'],
      'the installed copy wins',
    );
    assert.equal(installed.reports.filter((r) => r.name === 'ExampleCallback').length, 1);
    assert.ok(registry.get('module-example-tasks/tasks'), 'bundled v3 resources join the registry');

    assert.deepEqual(
      installed.entries.map((e) => e.name).sort(),
      installed.reports
        .filter((r) => r.status === 'loaded')
        .map((r) => r.name)
        .sort(),
      'workers load exactly the modules that loaded here',
    );
    const skipped = lines.filter((l) => l.msg.startsWith('module Hangs skipped'));
    assert.equal(skipped.length, 1);
    assert.match(skipped[0]!.reason!, /did not finish loading/);
    assert.deepEqual(readSetting(db, moduleReports), installed.reports);
  });

  it('finds nothing, and fails nothing, without a modules folder', async () => {
    await withTempDir('pbx-install-empty-', async (empty) => {
      const installed = await installModules({
        dataDir: empty,
        registry: new ResourceRegistry(),
        db,
        logger,
        bundledDir: join(empty, 'none'),
      });
      assert.deepEqual(installed, { reports: [], entries: [], legacy: [] });
    });
  });

  it('loads the bundled examples only when asked', async () => {
    await withTempDir('pbx-install-noexamples-', async (empty) => {
      const registry = new ResourceRegistry();
      const installed = await installModules({ dataDir: empty, registry, db, logger });
      assert.deepEqual(installed, { reports: [], entries: [], legacy: [] });
      assert.equal(registry.get('module-example-tasks/tasks'), undefined);
    });
  });

  it('ships the examples where it looks for them', () => {
    assert.match(BUNDLED_MODULES_DIR, /resources[\\/]modules[\\/]$/);
  });
});
