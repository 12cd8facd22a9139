import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { openDatabase } from '../../storage/database.ts';
import { startTestServer, type TestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const EXPORT = `${V3}/backup:exportConfig`;
const IMPORT = `${V3}/backup:importConfig`;
const EXTENSIONS = `${V3}/extensions`;

async function ok(t: TestServer, path: string, body: unknown, method = 'POST') {
  const answer = await t.call(path, { method, body });
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json.data;
}

/** An ADMIN key without full_permissions (no SENSITIVE). */
async function adminKeyHeaders(t: TestServer) {
  const key = await ok(t, `${V3}/api-keys`, { description: 'importer', allowed_paths: { '/api/v3/backup': 'write' } });
  return { authorization: `Bearer ${key.key as string}` };
}

/** The stored secret column, as the file holds it (sealed or not). */
function storedSecrets(t: TestServer) {
  const db = openDatabase(join(t.dataDir, 'pbx.sqlite'));
  try {
    return db.prepare('SELECT number, secret FROM extensions ORDER BY number').all() as Array<{
      number: string;
      secret: string;
    }>;
  } finally {
    db.close();
  }
}

describe('backup: the extensions', () => {
  let source: TestServer;
  let target: TestServer;
  let exported: Record<string, unknown>;
  let withSecrets: Record<string, unknown>;
  before(async () => {
    [source, target] = await Promise.all([startTestServer(), startTestServer()]);
    await ok(source, EXTENSIONS, {
      number: '201',
      username: 'Reception',
      callerid: 'Front desk',
      secret: 'sip pass 201',
    });
    await ok(source, EXTENSIONS, { number: '202', username: 'Store', secret: 'sip pass 202', disabled: true });
    exported = await ok(source, EXPORT, undefined, 'GET');
    withSecrets = await ok(source, `${EXPORT}?secrets=true`, undefined, 'GET');
  });
  after(() => Promise.all([source.close(), target.close()]));

  test('the export lists every extension without its SIP password; secrets=true adds it in clear', () => {
    assert.deepEqual(exported.extensions, [
      { number: '201', username: 'Reception', callerid: 'Front desk', disabled: false },
      { number: '202', username: 'Store', callerid: '', disabled: true },
    ]);
    assert.doesNotMatch(JSON.stringify(exported), /sip pass|enc:v1/);
    assert.deepEqual(
      (withSecrets.extensions as Array<{ secret?: string }>).map((e) => e.secret),
      ['sip pass 201', 'sip pass 202'],
    );
  });

  test('a round trip restores them on another server, the passwords sealed there with its own key', async () => {
    const preview = await ok(target, IMPORT, { config: withSecrets, dryRun: true });
    assert.deepEqual(preview.sections.extensions, { added: ['201', '202'], changed: [], removed: [] });
    assert.equal((await ok(target, EXTENSIONS, undefined, 'GET')).length, 0, 'a preview writes nothing');

    const report = await ok(target, IMPORT, { config: withSecrets });
    assert.equal(report.applied, true);
    const list = (await ok(target, EXTENSIONS, undefined, 'GET')) as Array<Record<string, unknown>>;
    assert.deepEqual(
      list.map((e) => [e.number, e.username, e.callerid, e.disabled]),
      [
        ['201', 'Reception', 'Front desk', false],
        ['202', 'Store', '', true],
      ],
    );
    for (const row of storedSecrets(target)) assert.match(row.secret, /^enc:/, `${row.number} is sealed at rest`);
    const again = await ok(target, `${EXPORT}?secrets=true`, undefined, 'GET');
    assert.deepEqual(again.extensions, withSecrets.extensions, 'the same extensions and passwords come back out');
  });

  test('a file without passwords keeps the stored ones; an extension it lacks is removed', async () => {
    const sealedBefore = storedSecrets(target).find((r) => r.number === '201')!.secret;
    const config = { ...exported, extensions: (exported.extensions as unknown[]).slice(0, 1) };
    const report = await ok(target, IMPORT, { config });
    assert.deepEqual(report.sections.extensions, { added: [], changed: [], removed: ['202'] });
    assert.deepEqual(storedSecrets(target), [{ number: '201', secret: sealedBefore }]);
  });

  test('bad input is a 422 naming the entry and field, and nothing is stored', async () => {
    const before = storedSecrets(target);
    const cases: Array<[unknown, RegExp]> = [
      [[{ number: '2x', username: 'A', secret: 'long enough' }], /extensions\[0\]\.number/],
      [[{ number: '301', username: 'New' }], /extensions\[0\]\.secret.*without secrets/],
      [[{ number: '301', username: 'A', secret: 'long enough', disabled: 'no' }], /extensions\[0\]\.disabled/],
      ['not a list', /extensions: must be an array/],
    ];
    for (const [extensions, message] of cases) {
      const answer = await target.call(IMPORT, { method: 'POST', body: { config: { ...exported, extensions } } });
      assert.equal(answer.status, 422, answer.text);
      assert.match(answer.text, message);
    }
    assert.deepEqual(storedSecrets(target), before);
  });

  test('changing a stored SIP password from a file needs SENSITIVE', async () => {
    const headers = await adminKeyHeaders(target);
    const config = {
      ...exported,
      extensions: [{ number: '201', username: 'Reception', callerid: 'Front desk', secret: 'another pass' }],
    };
    const answer = await target.remote(IMPORT, { method: 'POST', body: { config }, headers });
    assert.equal(answer.status, 403, answer.text);
    assert.match(answer.text, /SIP password \(extension 201\) needs the SENSITIVE level/);
  });
});
