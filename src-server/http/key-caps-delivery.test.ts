import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { poll } from '../test-support/bouncer.ts';
import { useTestServer, type TestServer } from '../test-support/server.ts';
import { FIREWALL } from '../test-support/v3-paths.ts';

const FEED = '/pbxcore/api/v3/firewall-bouncer/blocklist';
const t = useTestServer();

interface Delivery {
  served: number;
  of: number;
  keys: Array<{ description: string }>;
  missing: Array<{ keyId: number; description: string; why: string }>;
}

async function deliveryOf(t: TestServer, ip: string): Promise<Delivery> {
  t.server.services.firewall.cursors.flush();
  const bans = (await t.call(`${FIREWALL}:getBannedIps`)).json.data as Array<{ ip: string; delivery: Delivery }>;
  return bans.find((ban) => ban.ip === ip)!.delivery;
}

test('delivery counts every key that should receive a ban: never polled, feeds by last fetch, capped out with why', async () => {
  const db = t.server.services.db;
  const fw0 = createTestApiKey(db, { description: 'fw0' });
  createTestApiKey(db, { description: 'fw1' });
  await poll(t, fw0.key);
  const ban = await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip: '203.0.113.50', duration: 3600 } });
  assert.equal(ban.status, 201, ban.text);
  t.server.services.firewall.snapshots.get();
  await poll(t, fw0.key);
  let delivery = await deliveryOf(t, '203.0.113.50');
  assert.deepEqual({ served: delivery.served, of: delivery.of }, { served: 1, of: 2 });
  assert.deepEqual(delivery.missing, [
    { keyId: delivery.missing[0]!.keyId, description: 'fw1', why: 'fw1 has never polled' },
  ]);

  // A router feed key, counted by its last fetch.
  const router = createTestApiKey(db, { description: 'mikrotik' });
  delivery = await deliveryOf(t, '203.0.113.50');
  assert.equal(delivery.of, 3);
  assert.ok(delivery.missing.some((m) => m.why === 'mikrotik has never polled'));
  assert.equal((await t.call(FEED, { headers: { 'X-Api-Key': router.key } })).status, 200);
  delivery = await deliveryOf(t, '203.0.113.50');
  assert.deepEqual(delivery.keys.map((k) => k.description).sort(), ['fw0', 'mikrotik']);

  // A key capped at 1 keeps the longer-lasting of two own bans and leaves the other out.
  const capped = createTestApiKey(db, { description: 'hex' });
  const patched = await t.call(`/pbxcore/api/v3/api-keys/${capped.id}`, {
    method: 'PATCH',
    body: { description: 'hex', entry_cap: 1 },
  });
  assert.equal(patched.status, 200);
  await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip: '203.0.113.51', duration: 7200 } });
  t.server.services.firewall.snapshots.get();
  assert.deepEqual(
    (await poll(t, capped.key)).new.map((d) => d.value),
    ['203.0.113.51'],
  );
  delivery = await deliveryOf(t, '203.0.113.50');
  assert.ok(
    delivery.missing.some((m) => m.why === 'hex is capped at 1 and left it out'),
    JSON.stringify(delivery.missing),
  );
  assert.ok((await deliveryOf(t, '203.0.113.51')).keys.some((k) => k.description === 'hex'));

  // Its status says what the cap left out.
  const status = (await t.call(`${FIREWALL}:getBouncerStatus`)).json.data as {
    bouncers: Array<{ description: string; cap: { text: string } | null; lastFetchAt: string | null }>;
  };
  const hex = status.bouncers.find((b) => b.description === 'hex')!;
  assert.equal(hex.cap?.text, 'capped at 1: 1 left out, all manual bans');
  assert.equal(status.bouncers.find((b) => b.description === 'fw0')!.cap, null);
  assert.notEqual(status.bouncers.find((b) => b.description === 'mikrotik')!.lastFetchAt, null);
});
