import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestServer } from '../../test-support/server.ts';

const BASE = '/pbxcore/api/v3/api-keys';
const t = useTestServer();
const FEED = { '/api/v3/firewall-bouncer': 'read' };

const create = (body: Record<string, unknown>) =>
  t.call(BASE, { method: 'POST', body: { description: 'fw1', allowed_paths: FEED, ...body } });

test('a key has no cap and no aggregation by default; a device preset sets its number', async () => {
  const plain = await create({});
  assert.equal(plain.status, 201);
  assert.equal(plain.json.data.entry_cap, null);
  assert.equal(plain.json.data.cap_preset, 'none');
  assert.equal(plain.json.data.aggregate, false);

  const hex = await create({ cap_preset: 'mikrotik-hex', aggregate: true });
  assert.equal(hex.status, 201);
  assert.equal(hex.json.data.entry_cap, 35_000);
  assert.equal(hex.json.data.cap_preset, 'mikrotik-hex');
  assert.equal(hex.json.data.aggregate, true);

  const id = hex.json.data.id as number;
  const custom = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'fw1', entry_cap: '15000' } });
  assert.equal(custom.status, 200);
  assert.equal(custom.json.data.entry_cap, 15_000);
  assert.equal(custom.json.data.cap_preset, 'custom', 'a number given alone is a custom cap');
  const none = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'fw1', cap_preset: 'none' } });
  assert.equal(none.json.data.entry_cap, null);
  const read = await t.call(`${BASE}/${id}`);
  assert.equal(read.json.data.entry_cap, null);
  assert.equal(read.json.data.aggregate, true, 'a PATCH keeps what it does not name');
  const defaults = await t.call(`${BASE}:getDefault`);
  assert.equal(defaults.json.data.entry_cap, null);
  assert.equal(defaults.json.data.cap_preset, 'none');
  assert.equal(defaults.json.data.aggregate, false);
});

test('bad cap, preset or aggregation values get 422 naming the field, and nothing is written', async () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ entry_cap: 0 }, /^entry_cap: must be a whole number from 1 to 2,000,000/],
    [{ entry_cap: 2_000_001 }, /^entry_cap: /],
    [{ entry_cap: 12.5 }, /^entry_cap: /],
    [{ entry_cap: -5 }, /^entry_cap: /],
    [{ entry_cap: 'lots' }, /^entry_cap: /],
    [{ entry_cap: true }, /^entry_cap: /],
    [{ cap_preset: 'fritzbox' }, /^cap_preset: must be one of none, mikrotik-hex/],
    [{ cap_preset: '' }, /^cap_preset: /],
    [{ cap_preset: 7 }, /^cap_preset: /],
    [{ aggregate: 'yes' }, /^aggregate: must be true or false/],
    [{ aggregate: 2 }, /^aggregate: /],
    [{ aggregate: null }, /^aggregate: /],
    [{ cap_preset: 'custom' }, /^entry_cap: required with cap_preset "custom"/],
    [{ cap_preset: 'mikrotik-hex', entry_cap: 1000 }, /^entry_cap: cap_preset "mikrotik-hex" stands for 35000/],
    [{ cap_preset: 'none', entry_cap: 1000 }, /^entry_cap: must be null/],
  ];
  const before = (await t.call(BASE)).json.data.length as number;
  for (const [body, message] of cases) {
    const answer = await create(body);
    assert.equal(answer.status, 422, JSON.stringify(body));
    assert.match((answer.json.messages.error as string[]).join(' | '), message, JSON.stringify(body));
  }
  assert.equal((await t.call(BASE)).json.data.length, before, 'no key was created');
  const made = await create({ entry_cap: 500 });
  const id = made.json.data.id as number;
  const refused = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'fw1', entry_cap: 0 } });
  assert.equal(refused.status, 422);
  assert.equal((await t.call(`${BASE}/${id}`)).json.data.entry_cap, 500, 'a refused edit keeps the cap');
});
