import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readManifest, slugOf } from './manifest.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

describe('module manifest', () => {
  const root = makeTempDir('pbx-manifest-');
  after(() => removeTempDir(root));
  const folder = (name: string, manifest: unknown) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    if (manifest !== undefined)
      writeFileSync(join(dir, 'module.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
    return dir;
  };
  const ok = { version: '1.0.0', style: 'v3', entry: 'index.js' };

  it('derives the slug from the name', () => {
    const slugs = {
      ModuleExampleTasks: 'example-tasks',
      ExampleRoutes: 'example-routes',
      SmartIVR: 'smart-ivr',
      ApiV3Bridge: 'api-v3-bridge',
      Module: 'module',
    };
    for (const [name, slug] of Object.entries(slugs)) assert.equal(slugOf(name), slug, name);
  });

  it('reads a valid manifest and resolves the entry inside the folder', () => {
    const dir = folder('Good', { name: 'Good', ...ok, slug: 'goodies' });
    const read = readManifest(dir, 'Good');
    assert.ok(read.ok);
    assert.equal(read.slug, 'goodies');
    assert.equal(read.entryFile, join(dir, 'index.js'));
  });

  it('explains what is wrong with a bad manifest', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['Missing', undefined, /module\.json is missing/],
      ['NotJson', '{nope', /not valid JSON/],
      ['BadStyle', { name: 'BadStyle', ...ok, style: 'v9' }, /style/],
      ['BadEntry', { name: 'BadEntry', ...ok, entry: 'index.ts' }, /entry must be an ES module file/],
      ['Outside', { name: 'Outside', ...ok, entry: '../elsewhere/index.js' }, /outside the module folder/],
      ['Renamed', { name: 'OtherName', ...ok }, /folder is "Renamed"/],
      ['BadSlug', { name: 'BadSlug', ...ok, slug: 'Has Spaces' }, /slug/],
      ['NoVersion', { name: 'NoVersion', style: 'v1', entry: 'index.js' }, /version/],
    ];
    for (const [name, manifest, expected] of cases) {
      const read = readManifest(folder(name, manifest), name);
      assert.equal(read.ok, false, name);
      assert.match((read as { error: string }).error, expected, name);
    }
  });
});
