import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { createFilter } from '../../test-support/bouncer.ts';
import { useTestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const FIREWALL = `${V3}/firewall`;

const t = useTestServer();

const networkOf = (id: number) =>
  t.server.services.db.prepare('SELECT networkfilterid FROM api_keys WHERE id = ?').pluck().get(id);

test('deleting a filter keys are bound to is refused with 409 naming them, unless moveKeysTo says where they go', async () => {
  const site = await createFilter(t, { permit: '192.0.2.0/24', description: 'fw site' });
  const other = await createFilter(t, { permit: '198.51.100.0/24', description: 'other site' });
  const a = createTestApiKey(t.server.services.db, { description: 'fw1', networkFilterId: String(site.id) });
  const b = createTestApiKey(t.server.services.db, { description: 'fw2', networkFilterId: String(site.id) });

  const refused = await t.call(`${FIREWALL}/${site.id}`, { method: 'DELETE' });
  assert.equal(refused.status, 409, refused.text);
  assert.match(
    refused.json.messages.error[0],
    /"fw site" \(192\.0\.2\.0\/24\) is the allowed source of the API keys "fw1" \(#\d+\), "fw2" \(#\d+\).*moveKeysTo/,
  );
  assert.equal((await t.call(`${FIREWALL}/${site.id}`)).status, 200, 'the filter is still there');

  for (const bad of ['none', '0', String(site.id), '999999', 'x']) {
    const answer = await t.call(`${FIREWALL}/${site.id}?moveKeysTo=${bad}`, { method: 'DELETE' });
    assert.equal(answer.status, 422, `${bad}: ${answer.text}`);
    assert.match(answer.json.messages.error[0], /^moveKeysTo:/);
  }

  const moved = await t.call(`${FIREWALL}/${site.id}?moveKeysTo=${other.id}`, { method: 'DELETE' });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(
    moved.json.data.movedKeys.map((k: { id: number }) => k.id),
    [a.id, b.id],
  );
  assert.equal(networkOf(a.id), String(other.id));
  assert.equal((await t.call(`${FIREWALL}/${site.id}`)).status, 404);

  const toLocalhost = await t.call(`${FIREWALL}/${other.id}?moveKeysTo=localhost`, { method: 'DELETE' });
  assert.equal(toLocalhost.status, 200, toLocalhost.text);
  assert.equal(networkOf(b.id), 'localhost', 'never widened to any address');
  // The export of this server restores: no key names a filter that does not exist.
  const exported = (await t.call(`${V3}/backup:exportConfig`)).json.data;
  const dry = await t.call(`${V3}/backup:importConfig`, { method: 'POST', body: { config: exported, dryRun: true } });
  assert.equal(dry.status, 200, dry.text);
});

test('a key bound to a filter, with write on the firewall, cannot widen that filter, make it trusted or delete it', async () => {
  const own = await createFilter(t, { permit: '203.0.113.0/28', description: 'bouncer host' });
  const { key } = createTestApiKey(t.server.services.db, {
    allowedPaths: { '/api/v3/firewall': 'write' },
    networkFilterId: String(own.id),
  });
  // The key is used from its filter's network: 127.0.0.2 is not in it, so the filter is widened to hold it first by the console.
  assert.equal(
    (await t.call(`${FIREWALL}/${own.id}`, { method: 'PATCH', body: { permit: '127.0.0.2/32' } })).status,
    200,
  );
  const asKey = (method: string, path: string, body?: unknown) =>
    t.remote(path, { method, body, headers: { 'X-Api-Key': key } });

  const widen = await asKey('PATCH', `${FIREWALL}/${own.id}`, { permit: '0.0.0.0/0' });
  assert.equal(widen.status, 403, widen.text);
  assert.match(
    widen.json.messages.error[0],
    /^permit: this API key is bound to network filter .* cannot widen it to 0\.0\.0\.0\/0/,
  );
  assert.equal(
    (await asKey('PATCH', `${FIREWALL}/${own.id}`, { permit: '127.0.0.0/24' })).status,
    403,
    'a larger range is a widening too',
  );
  assert.equal((await asKey('PATCH', `${FIREWALL}/${own.id}`, { newer_block_ip: true })).status, 403);
  assert.equal((await asKey('DELETE', `${FIREWALL}/${own.id}?moveKeysTo=localhost`)).status, 403);
  // Edits that do not widen it stay open to the key.
  const edit = await asKey('PATCH', `${FIREWALL}/${own.id}`, { description: 'renamed' });
  assert.equal(edit.status, 200, edit.text);
  // Another filter is not its restriction: the usual rules apply.
  const another = await createFilter(t, { permit: '198.51.100.0/28' });
  assert.equal((await asKey('PATCH', `${FIREWALL}/${another.id}`, { permit: '198.51.100.0/24' })).status, 200);
  assert.equal((await t.call(`${FIREWALL}/${own.id}`)).json.data.permit, '127.0.0.2/32');
});
