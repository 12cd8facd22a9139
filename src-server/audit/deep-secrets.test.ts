import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { captureLogs } from '../test-support/captured-logs.ts';
import { ADMIN_PASSWORD, loginToken } from '../test-support/credentials.ts';
import { useTestServer } from '../test-support/server.ts';

/**
 * Issue 19 item 3: a unique secret is planted in every secret-bearing field of every operation
 * that takes one (top level and nested, accepted and refused writes, web-thread auth methods),
 * then searched for in the audit log (the API, its search, the table read from the file, the
 * file's raw bytes) and in everything the server logged at debug level.
 */

const V3 = '/pbxcore/api/v3';

describe('secrets never reach the audit log or the logs, at any depth', () => {
  const logs = captureLogs('debug', { server: true });
  const planted: string[] = [];
  /** Secrets also stored nowhere in clear (hashed, sealed or not stored): absent from the raw file too. */
  const neverInClear: string[] = [];
  const plant = (label: string, clearAtRest = false) => {
    const value = `${label}-${randomBytes(6).toString('hex')}`;
    planted.push(value);
    if (!clearAtRest) neverInClear.push(value);
    return value;
  };
  const hexKey = () => {
    const key = randomBytes(32).toString('hex');
    planted.push(key);
    neverInClear.push(key);
    return key;
  };

  const t = useTestServer({
    adminPassword: ADMIN_PASSWORD,
    exampleModules: true,
    logger: logs.logger,
  });

  it('every secret-bearing write, top level and nested, accepted or refused', async () => {
    const ok = async (
      path: string,
      method: string,
      body: unknown,
      expected = 200,
      headers: Record<string, string> = {},
    ) => {
      const answer = await t.call(`${V3}/${path}`, { method, body, headers });
      assert.equal(answer.status, expected, `${method} ${path}: ${answer.text.slice(0, 300)}`);
      return answer.json?.data;
    };
    // AMI: PATCH, PUT, and a refused PUT (bad port) carrying a secret.
    await ok('ami', 'PATCH', { host: '127.0.0.1', secret: plant('ami-patch') });
    const ami = await ok('ami', 'GET', undefined);
    await ok('ami', 'PUT', { ...ami, secret: plant('ami-put') });
    await ok('ami', 'PUT', { ...ami, port: 0, secret: plant('ami-refused') }, 422);
    // Extensions and providers: write-only SIP secrets (stored in clear for Asterisk by design).
    await ok('extensions', 'POST', { number: '2301', username: 'Planted', secret: plant('ext-create', true) }, 201);
    await ok('extensions/2301', 'PATCH', { secret: plant('ext-patch', true) });
    await ok('extensions/2301', 'PUT', { number: '2301', username: 'Planted', secret: plant('ext-put', true) });
    await ok('extensions', 'POST', { number: 'x', username: 'Bad', secret: plant('ext-refused') }, 422);
    const provider = await ok(
      'providers',
      'POST',
      { description: 'planted', host: 'sip.example.net', secret: plant('provider-create', true) },
      201,
    );
    await ok(`providers/${provider.id}`, 'PATCH', { secret: plant('provider-patch', true) });
    // API keys: a chosen key on create, on patch, and generated ones (generateKey, rotate).
    const key = await ok(
      'api-keys',
      'POST',
      { description: 'planted', key: hexKey(), allowed_paths: { '/api/v3/extensions': 'read' } },
      201,
    );
    await ok(`api-keys/${key.id}`, 'PATCH', { description: 'planted', key: hexKey() });
    const generated = await ok('api-keys:generateKey', 'POST', {});
    planted.push(generated.key);
    neverInClear.push(generated.key);
    const rotated = await ok(`api-keys/${key.id}:rotate`, 'POST', undefined);
    planted.push(rotated.key);
    neverInClear.push(rotated.key);
    // Backup import: the AMI secret nested in config, dry run and real, and nested secret names elsewhere.
    const config = await ok('backup:exportConfig', 'GET', undefined);
    for (const dryRun of [true, false]) {
      await ok('backup:importConfig', 'POST', {
        config: { ...config, ami: { ...config.ami, secret: plant(`backup-ami-${dryRun}`) } },
        dryRun,
      });
    }
    await ok(
      'backup:importConfig',
      'POST',
      { config: { ...config, ami: { ...config.ami, port: 'x', secret: plant('backup-refused') } }, dryRun: false },
      422,
    );
    // Passwords: setPassword (web thread), a wrong login, a wrong current password from a remote admin.
    const token = await loginToken(t, 'admin', ADMIN_PASSWORD);
    const wrongCurrent = plant('current-password');
    const refused = await t.remote(`${V3}/auth:setPassword`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: { password: plant('new-password-x'), currentPassword: wrongCurrent },
    });
    assert.equal(refused.status, 422, refused.text);
    const login = await t.remote(`${V3}/auth:login`, {
      method: 'POST',
      body: { login: 'admin', password: plant('login-guess') },
    });
    assert.equal(login.status, 401);
    const session = await t.call('/admin-cabinet/session/start', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      body: `login=admin&password=${plant('session-guess')}`,
    });
    assert.equal(session.status, 401);
    // A refused key value and a malformed one, remotely: rejections are recorded, never the value.
    assert.equal((await t.remote(`${V3}/extensions`, { headers: { 'x-api-key': hexKey() } })).status, 401);
    assert.equal(
      (await t.remote(`${V3}/extensions`, { headers: { authorization: `Bearer ${plant('malformed-bearer')}` } }))
        .status,
      401,
    );
    assert.ok(planted.length >= 20, `${planted.length} secrets planted`);
  });

  it('the audit log (API, search, table and file) and the log output hold none of them', async () => {
    t.server.services.audit.flush();
    const logged = logs.text();
    const all = await t.call(`${V3}/audit-log?limit=1000`);
    assert.equal(all.status, 200);
    assert.ok(all.json.data.length >= 15, 'the writes and rejections are recorded');
    const backup = all.json.data.find(
      (e: { resource: string; status: number }) => e.resource === 'backup' && e.status === 200,
    );
    assert.ok(
      backup && JSON.stringify(backup.diff).includes('config'),
      'the import is recorded with its (masked) config',
    );
    for (const secret of planted) {
      assert.ok(!all.text.includes(secret), `audit API holds ${secret}`);
      const search = await t.call(`${V3}/audit-log?search=${encodeURIComponent(secret)}`);
      assert.deepEqual(search.json.data, [], `audit search finds ${secret}`);
      assert.ok(!logged.includes(secret), `the log holds ${secret}`);
    }
    const file = join(t.dataDir, 'pbx.sqlite');
    const reader = new Database(file, { readonly: true });
    const table = JSON.stringify(reader.prepare('SELECT * FROM audit_log').all());
    reader.close();
    for (const secret of planted) assert.ok(!table.includes(secret), `audit_log table holds ${secret}`);
    for (const path of [file, `${file}-wal`]) {
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path);
      for (const secret of neverInClear) assert.ok(!bytes.includes(secret), `${path} holds ${secret} in clear`);
    }
    assert.ok(logged.includes('"msg":"request"'), 'the log was captured');
  });
});
