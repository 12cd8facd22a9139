import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { feedCursorVariable } from '../../../src-shared/formats.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { banThroughFailures, poll, values } from '../../test-support/bouncer.ts';
import { RouterOsModel } from '../../test-support/routeros-model.ts';
import { useTestServer } from '../../test-support/server.ts';

const BASE = '/pbxcore/api/v3/api-keys';
const FEED = '/pbxcore/api/v3/firewall-bouncer/blocklist?format=mikrotik&listname=edge';

describe('api-keys/{id}:resync', () => {
  const t = useTestServer();
  let key: { id: number; key: string };
  before(() => {
    key = createTestApiKey(t.server.services.db, { description: 'edge router' });
    banThroughFailures(t, 'sip', '203.0.113.21');
    banThroughFailures(t, 'ami', '198.51.100.22');
  });

  /** A router's fetch with the cursor its last run left, run on the model. */
  const fetchFeed = async (router: RouterOsModel) => {
    const since = router.globals.get(feedCursorVariable('edge'));
    const url = since === undefined ? FEED : `${FEED}&since=${encodeURIComponent(since)}`;
    const answer = await t.remote(url, { headers: { 'X-Api-Key': key.key } });
    assert.equal(answer.status, 200, answer.text);
    router.run(answer.text, t.server.services.clock.now());
  };

  test("a router's next fetch is a full list, a bouncer's next poll carries everything in new; audited", async () => {
    const router = new RouterOsModel();
    await fetchFeed(router);
    await fetchFeed(router);
    assert.equal(router.ran.swap, undefined, 'before: a delta');
    const first = await poll(t, key.key, '?startup=true');
    const everything = values(first.new);
    assert.ok(everything.length >= 2);

    // The bouncer's set and the router's list are lost (nftables flushed, a reboot that kept the script's :global).
    router.run('/ip/firewall/address-list/remove [ find where list="edge" ];\n', t.server.services.clock.now());
    const answer = await t.call(`${BASE}/${key.id}:resync`, { method: 'POST' });
    assert.equal(answer.status, 200, answer.text);
    // The test server checks every answer against its operation's output schema.
    const data = answer.json.data as { id: number; resync_requested_at: string };
    assert.equal(data.id, key.id);

    await fetchFeed(router);
    assert.equal(router.ran.swap, 2, 'after a resync: the full list, swap-loaded, whatever cursor the router presents');
    const held = [...router.entries('ip', 'edge', t.server.services.clock.now()).keys()];
    assert.ok(held.includes('203.0.113.21') && held.includes('198.51.100.22'), held.join());
    await fetchFeed(router);
    assert.equal(router.ran.swap, undefined, 'then deltas again');

    const next = await poll(t, key.key);
    assert.deepEqual(values(next.new), everything, "the next poll's new: everything the key should hold");

    t.server.services.audit.flush();
    const audit = t.server.services.db
      .prepare("SELECT operation, record_id, status, diff FROM audit_log WHERE resource = 'api-keys' ORDER BY id DESC")
      .get() as { operation: string; record_id: string; status: number; diff: string };
    assert.equal(audit.operation, 'resync');
    assert.equal(audit.record_id, String(key.id));
    assert.equal(audit.status, 200);
    assert.match(audit.diff, new RegExp(`"resync".*${data.resync_requested_at}`));
  });

  test('bad input: an unknown key is a 404, a body-less POST only; a weaker key cannot resync a stronger one', async () => {
    assert.equal((await t.call(`${BASE}/987654:resync`, { method: 'POST' })).status, 404);
    assert.equal((await t.call(`${BASE}/${key.id}:resync`)).status, 405);
    const full = createTestApiKey(t.server.services.db, { fullPermissions: true });
    const weak = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/api-keys': 'write' } });
    const refused = await t.call(`${BASE}/${full.id}:resync`, { method: 'POST', headers: { 'X-Api-Key': weak.key } });
    assert.equal(refused.status, 403, refused.text);
  });
});
