import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const EXPORT = `${V3}/backup:exportConfig`;
const IMPORT = `${V3}/backup:importConfig`;
const LINK = `${V3}/crowdsec-link`;

async function ok(t: TestServer, path: string, body: unknown, method = 'POST') {
  const answer = await t.call(path, { method, body });
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json.data;
}

/** An ADMIN key without full_permissions (no SENSITIVE), used from a remote address. */
async function adminKeyHeaders(t: TestServer) {
  const key = await ok(t, `${V3}/api-keys`, { description: 'importer', allowed_paths: { '/api/v3/backup': 'write' } });
  return { authorization: `Bearer ${key.key as string}` };
}

// Off, so neither server talks to the (absent) LAPI; every field still round-trips.
const SOURCE_LINK = {
  enabled: false,
  url: 'http://127.0.0.1:9/',
  siteName: 'site-a',
  pushEnabled: true,
  machineLogin: 'pbx-site-a',
  machinePassword: 'machine password 1',
  shareCategories: ['sip', 'ami'],
  shareManual: false,
  shareFilters: true,
  pullEnabled: true,
  bouncerKey: 'bouncer-key-0123456789',
  republish: false,
  pullIntervalSeconds: 30,
};

describe('backup: the CrowdSec link settings', () => {
  let source: TestServer;
  let target: TestServer;
  let exported: Record<string, unknown>;
  let withSecrets: Record<string, unknown>;
  before(async () => {
    [source, target] = await Promise.all([startTestServer(), startTestServer()]);
    await ok(source, LINK, SOURCE_LINK, 'PUT');
    exported = await ok(source, EXPORT, undefined, 'GET');
    withSecrets = await ok(source, `${EXPORT}?secrets=true`, undefined, 'GET');
  });
  after(() => Promise.all([source.close(), target.close()]));

  test('the export holds the link without its password and key; secrets=true adds them in clear', () => {
    const { machinePassword: _p, bouncerKey: _k, ...publicFields } = SOURCE_LINK;
    assert.deepEqual(exported.crowdsecLink, publicFields);
    assert.doesNotMatch(JSON.stringify(exported), /machine password 1|bouncer-key-0123456789|enc:v1/);
    assert.deepEqual(withSecrets.crowdsecLink, SOURCE_LINK);
  });

  test('the preview lists the link fields an import changes, and writes nothing', async () => {
    const before = (await target.call(LINK)).json.data;
    const preview = await ok(target, IMPORT, { config: withSecrets, dryRun: true });
    assert.deepEqual(preview.sections.crowdsecLink, {
      added: [],
      changed: [
        'url',
        'siteName',
        'machineLogin',
        'shareCategories',
        'shareManual',
        'shareFilters',
        'pullEnabled',
        'republish',
        'pullIntervalSeconds',
        'machinePassword',
        'bouncerKey',
      ],
      removed: [],
    });
    assert.deepEqual((await target.call(LINK)).json.data, before);
  });

  test('secrets in the file need SENSITIVE; from localhost they are stored sealed and the running link uses them', async () => {
    const headers = await adminKeyHeaders(target);
    const refused = await target.remote(IMPORT, { method: 'POST', body: { config: withSecrets }, headers });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.messages.error.join(' '), /crowdsecLink\.machinePassword, bouncerKey: .*SENSITIVE/);

    const report = await ok(target, IMPORT, { config: withSecrets });
    assert.equal(report.applied, true);
    assert.deepEqual((await target.call(LINK)).json.data, (await source.call(LINK)).json.data);
    const stored = JSON.parse(
      target.server.services.db
        .prepare("SELECT value FROM settings WHERE key = 'crowdsec-link'")
        .pluck()
        .get() as string,
    );
    assert.match(stored.machinePassword, /^enc:v1:/);
    assert.match(stored.bouncerKey, /^enc:v1:/);
    // The web thread reloaded the link from the imported record.
    const running = target.server.services.crowdsecLink.settings();
    assert.equal(running.machinePassword, 'machine password 1');
    assert.equal(running.bouncerKey, 'bouncer-key-0123456789');
    assert.equal(running.pullIntervalMs, 30_000);
    assert.equal(running.republish, false);
  });

  test('a file without secrets keeps the stored ones; sending them to another LAPI needs SENSITIVE', async () => {
    const again = await ok(target, IMPORT, { config: exported, dryRun: true });
    assert.deepEqual(again.sections.crowdsecLink, { added: [], changed: [], removed: [] });

    const moved = {
      ...exported,
      crowdsecLink: { ...(exported.crowdsecLink as object), url: 'http://127.0.0.2:8080/' },
    };
    const headers = await adminKeyHeaders(target);
    const refused = await target.remote(IMPORT, { method: 'POST', body: { config: moved }, headers });
    assert.equal(refused.status, 403, refused.text);
    assert.match(refused.json.messages.error.join(' '), /crowdsecLink: changing url .*machinePassword and bouncerKey/);

    const report = await ok(target, IMPORT, { config: moved });
    assert.deepEqual(report.sections.crowdsecLink.changed, ['url']);
    const running = target.server.services.crowdsecLink.settings();
    assert.equal(running.url, 'http://127.0.0.2:8080/');
    assert.equal(running.machinePassword, 'machine password 1', 'the stored password is kept');
  });

  test('a backup made before the link leaves it as it is; a bad link section gets 422 naming the field', async () => {
    const { crowdsecLink: _link, ...older } = exported;
    const report = await ok(target, IMPORT, { config: older });
    assert.deepEqual(report.sections.crowdsecLink, { added: [], changed: [], removed: [] });
    assert.equal(target.server.services.crowdsecLink.settings().url, 'http://127.0.0.2:8080/');

    const link = exported.crowdsecLink as Record<string, unknown>;
    const cases: Array<[unknown, RegExp]> = [
      [{ ...link, url: 'ftp://192.0.2.10/' }, /^crowdsecLink\.url: must be an http:\/\/ or https:\/\/ URL/],
      [{ ...link, pullIntervalSeconds: '30' }, /^crowdsecLink\.pullIntervalSeconds: .*number/],
      [{ ...link, machinePassword: '' }, /^crowdsecLink\.machinePassword: must be 1-256 characters, not empty/],
      [{ ...link, bouncerKey: 'k'.repeat(257) }, /^crowdsecLink\.bouncerKey: must be at most 256 characters/],
      ['not an object', /^crowdsecLink: must be an object when present/],
    ];
    const before = (await target.call(LINK)).json.data;
    for (const [section, pattern] of cases) {
      const answer = await target.call(IMPORT, {
        method: 'POST',
        body: { config: { ...exported, crowdsecLink: section } },
      });
      assert.equal(answer.status, 422, answer.text);
      assert.ok(
        answer.json.messages.error.some((e: string) => pattern.test(e)),
        `${pattern}: ${answer.text}`,
      );
    }
    assert.deepEqual((await target.call(LINK)).json.data, before);
  });
});
