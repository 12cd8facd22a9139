import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/server.ts';

const BASE = '/pbxcore/api/v3/api-keys';
let t: TestServer;

before(async () => {
  t = await startTestServer();
});
after(() => t.close());

test('create without a key generates one, shows it once, and never reads it back', async () => {
  const made = await t.call(BASE, { method: 'POST', body: { description: 'bouncer', allowed_paths: { '/pbxcore/api/v3/firewall-bouncer/': 'read' } } });
  assert.equal(made.status, 201);
  const key = made.json.data.key as string;
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.equal(made.json.data.key_display, `${key.slice(0, 4)}...${key.slice(-4)}`);
  assert.equal(made.json.data.has_key, true);
  assert.deepEqual(made.json.data.allowed_paths, { '/api/v3/firewall-bouncer': 'read' }, 'prefixes are stored normalised');
  assert.equal(made.json.data.networkfilterid, 'none');
  assert.equal(made.json.data.full_permissions, false);
  assert.equal('key_hash' in made.json.data, false);

  const id = made.json.data.id as number;
  for (const path of [BASE, `${BASE}/${id}`]) {
    const read = await t.call(path);
    assert.equal(read.status, 200);
    assert.equal(read.text.includes(key), false, `${path} must not contain the key`);
    assert.equal(read.text.includes('key_hash'), false);
  }
  const patched = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'bouncer 2' } });
  assert.equal(patched.status, 200);
  assert.equal(patched.json.data.description, 'bouncer 2');
  assert.equal(patched.text.includes(key), false);
});

test('a given key is accepted once; the same key again is a 409', async () => {
  const key = 'ab'.repeat(32);
  const first = await t.call(BASE, { method: 'POST', body: { description: 'given', key } });
  assert.equal(first.status, 201);
  assert.equal(first.json.data.key, key);
  const again = await t.call(BASE, { method: 'POST', body: { description: 'given twice', key: key.toUpperCase() } });
  assert.equal(again.status, 409);
  assert.equal(again.json.result, false);
});

test('description is required on every verb, PATCH included (422)', async () => {
  const missing = await t.call(BASE, { method: 'POST', body: { allowed_paths: {} } });
  assert.equal(missing.status, 422);
  assert.match(missing.json.messages.error.join(' '), /description is required/);
  const made = await t.call(BASE, { method: 'POST', body: { description: 'x' } });
  const id = made.json.data.id as number;
  const patch = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { full_permissions: true } });
  assert.equal(patch.status, 422);
  assert.match(patch.json.messages.error.join(' '), /description is required/);
  const put = await t.call(`${BASE}/${id}`, { method: 'PUT', body: { full_permissions: true } });
  assert.equal(put.status, 422);
});

test('bad input is a 422, a missing record a 404', async () => {
  for (const body of [
    { description: 'x', key: 'short' },
    { description: 'x', allowed_paths: { '/api/v3/x': 'admin' } },
    { description: 'x', allowed_paths: ['nope'] },
    { description: 'x', networkfilterid: '9999' },
    { description: 'x', networkfilterid: 'everywhere' },
  ]) {
    const answer = await t.call(BASE, { method: 'POST', body });
    assert.equal(answer.status, 422, JSON.stringify(body));
    assert.equal(answer.json.result, false);
  }
  const form = await t.call(BASE, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `description=form&allowed_paths=${encodeURIComponent('{"/api/v3/extensions":"write"}')}&full_permissions=0`,
  });
  assert.equal(form.status, 201);
  assert.deepEqual(form.json.data.allowed_paths, { '/api/v3/extensions': 'write' });
  for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
    const answer = await t.call(`${BASE}/424242`, { method, body: method === 'GET' ? undefined : { description: 'x' } });
    assert.equal(answer.status, 404, method);
    assert.equal(answer.json.httpCode, 404);
  }
});

test('generateKey returns a fresh 64-hex key; getDefault the defaults', async () => {
  const a = await t.call(`${BASE}:generateKey`);
  const b = await t.call(`${BASE}:generateKey`, { method: 'POST' });
  assert.match(a.json.data.key, /^[0-9a-f]{64}$/);
  assert.notEqual(a.json.data.key, b.json.data.key);
  const defaults = await t.call(`${BASE}:getDefault`);
  assert.deepEqual(defaults.json.data, { description: '', allowed_paths: {}, full_permissions: false, networkfilterid: 'none', expand_ranges: false, has_key: false });
});

test('a deleted key fails on the very next request', async () => {
  const made = await t.call(BASE, { method: 'POST', body: { description: 'revoke me', full_permissions: true } });
  const key = made.json.data.key as string;
  const before = await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } });
  assert.equal(before.status, 200);
  const deleted = await t.call(`${BASE}/${made.json.data.id}`, { method: 'DELETE' });
  assert.equal(deleted.status, 200);
  const afterDelete = await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } });
  assert.equal(afterDelete.status, 401);
  assert.equal(afterDelete.json.result, false);
});

test('the key is used through Authorization or X-Api-Key, and records its last use', async () => {
  const made = await t.call(BASE, { method: 'POST', body: { description: 'reader', allowed_paths: { '/api/v3/extensions': 'read' } } });
  const key = made.json.data.key as string;
  assert.equal((await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: `Bearer ${key}` } })).status, 200);
  assert.equal((await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } })).status, 200);
  // Authorization wins when both are present: a bad Authorization fails even with a good X-Api-Key.
  assert.equal((await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: 'Bearer None', 'x-api-key': key } })).status, 401);
  assert.equal((await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: `Bearer ${key}`, 'x-api-key': 'junk' } })).status, 200);
  assert.equal((await t.remote('/pbxcore/api/v3/extensions', { method: 'POST', headers: { 'x-api-key': key }, body: {} })).status, 403);
  assert.equal((await t.remote('/pbxcore/api/v3/providers', { headers: { 'x-api-key': key } })).status, 403);
  const record = await t.call(`${BASE}/${made.json.data.id}`);
  assert.equal(record.json.data.last_used_ip, '127.0.0.2');
  assert.ok(Date.parse(record.json.data.last_used_at) > Date.now() - 60_000);
});
