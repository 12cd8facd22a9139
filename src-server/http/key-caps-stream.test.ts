import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ActiveBan } from '../firewall/bans/index.ts';
import { REPEAT_POLLS } from '../firewall/export/index.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { createFilter, poll, values } from '../test-support/bouncer.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import type { BusEvent } from '../wire/types.ts';

const KEYS = '/pbxcore/api/v3/api-keys';
const FEED = '/pbxcore/api/v3/firewall-bouncer/blocklist';

const upstreamBan = (value: string, seconds: number): ActiveBan => ({
  id: -1,
  category: 'upstream',
  ip: value,
  reason: 'community',
  bannedAt: Date.now(),
  expiresAt: Date.now() + seconds * 1000,
  origin: 'CAPI',
  scenario: 'crowdsecurity/ssh-bf',
});

const OWN = ['10.9.0.1 pbx/sip', '10.9.0.2 pbx/sip', '10.9.0.3 pbx/manual'];
const FILTERED = ['198.51.100.7 pbx/manual', '203.0.113.0/24 pbx/manual'];
const UPSTREAM = ['192.0.2.1', '192.0.2.2', '192.0.2.3'].map((v) => `${v} crowdsecurity/ssh-bf`);

describe('a capped key through a real poll sequence', () => {
  let t: TestServer;
  const events: BusEvent[] = [];
  before(async () => {
    t = await startTestServer();
    const { bans } = t.server.services.firewall;
    bans.ban('sip', '10.9.0.1', 'test', 3600);
    bans.ban('sip', '10.9.0.2', 'test', 1800);
    bans.ban('manual', '10.9.0.3', 'test', 7200);
    bans.setUpstream(
      ['192.0.2.1', '192.0.2.2', '192.0.2.3'].map((value, i) => ({ value, ban: upstreamBan(value, 600 + i) })),
      true,
    );
    await createFilter(t, { network: '192.0.2.200', subnet: 32, deny: '203.0.113.0/24, 198.51.100.7' });
    t.server.services.bus.on('key-capped-own', (event) => events.push(event));
  });
  after(() => t.close());

  const setCap = async (id: number, body: Record<string, unknown>) => {
    const answer = await t.call(`${KEYS}/${id}`, { method: 'PATCH', body: { description: 'fw1', ...body } });
    assert.equal(answer.status, 200, answer.text);
  };

  test('cap changes move entries in and out through new and deleted; an uncapped key still gets everything', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'fw1' });
    const other = createTestApiKey(t.server.services.db).key;
    await setCap(id, { entry_cap: 3 });
    const first = await poll(t, key);
    assert.deepEqual(values(first.new), OWN, 'own bans first');
    assert.deepEqual(first.deleted, []);
    assert.deepEqual(values((await poll(t, other)).new), [...OWN, ...FILTERED, ...UPSTREAM].sort());

    await setCap(id, { entry_cap: 6 });
    const raised = await poll(t, key);
    assert.deepEqual(
      values(raised.new),
      [...OWN, ...FILTERED, UPSTREAM[2]!].sort(),
      'the longest-lasting upstream one',
    );
    assert.deepEqual(raised.deleted, []);

    await setCap(id, { entry_cap: 2 });
    for (let i = 1; i <= REPEAT_POLLS; i++) {
      const lowered = await poll(t, key);
      assert.deepEqual(values(lowered.new), OWN.slice(0, 2), 'the two intrusion bans');
      assert.deepEqual(values(lowered.deleted), [OWN[2]!, ...FILTERED, UPSTREAM[2]!].sort(), `answer ${i}`);
    }
    assert.deepEqual((await poll(t, key)).deleted, [], 'each drop is repeated REPEAT_POLLS times, then no more');
    assert.deepEqual(events.at(-1), { type: 'key-capped-own', keyId: id, keyName: 'fw1', leftOutOwn: 1 });

    await setCap(id, { cap_preset: 'none' });
    const uncapped = await poll(t, key);
    assert.deepEqual(values(uncapped.new), [...OWN, ...FILTERED, ...UPSTREAM].sort());
    assert.deepEqual(uncapped.deleted, [], 'what comes back is not deleted');
    assert.deepEqual(events.at(-1), { type: 'key-capped-own', keyId: id, keyName: 'fw1', leftOutOwn: 0 });
  });

  test('a key capped after polling uncapped is told to delete what its cap leaves out', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'fw2' });
    assert.equal((await poll(t, key)).new.length, 8);
    await setCap(id, { entry_cap: 5 });
    const capped = await poll(t, key);
    assert.deepEqual(values(capped.new), [...OWN, ...FILTERED].sort());
    assert.deepEqual(values(capped.deleted), UPSTREAM);
    const startup = await poll(t, key, '?startup=true');
    assert.deepEqual(startup.deleted, [], 'startup: the bouncer holds nothing');
    assert.deepEqual((await poll(t, key)).deleted, []);
  });

  test('an own ban pushes an upstream one out of a full capped key; the feed of a capped key is its view', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'fw3' });
    await setCap(id, { entry_cap: 8 });
    assert.equal((await poll(t, key)).new.length, 8);
    t.server.services.firewall.bans.ban('ami', '10.9.0.9', 'test', 900);
    const pushed = await poll(t, key);
    assert.ok(values(pushed.new).includes('10.9.0.9 pbx/ami'));
    assert.deepEqual(values(pushed.deleted), [UPSTREAM[0]!], 'the shortest-lasting upstream decision goes');
    const feed = await t.call(FEED, { headers: { 'X-Api-Key': key } });
    assert.equal(feed.status, 200);
    assert.deepEqual(feed.text.trim().split('\n'), [
      '10.9.0.1',
      '10.9.0.2',
      '10.9.0.3',
      '10.9.0.9',
      '192.0.2.2',
      '192.0.2.3',
      '198.51.100.7',
      '203.0.113.0/24',
    ]);
    t.server.services.firewall.bans.lift('ami', '10.9.0.9');
  });

  test('keys with the same options share one view per snapshot; aggregation merges adjacent entries', async () => {
    const db = t.server.services.db;
    const a = createTestApiKey(db, { description: 'agg1' });
    const b = createTestApiKey(db, { description: 'agg2' });
    await setCap(a.id, { aggregate: true });
    await setCap(b.id, { aggregate: true });
    const builds = t.server.services.firewall.views.builds;
    const answerA = await poll(t, a.key);
    const answerB = await poll(t, b.key);
    assert.deepEqual(answerA.new, answerB.new);
    assert.equal(t.server.services.firewall.views.builds, builds + 1, 'one view for both keys');
    // 10.9.0.1-3 and 192.0.2.1-3: each the fewest aligned CIDRs, never wider than the input.
    assert.deepEqual(values(answerA.new), [
      '10.9.0.1 pbx/aggregate',
      '10.9.0.2/31 pbx/aggregate',
      '192.0.2.1 pbx/aggregate',
      '192.0.2.2/31 pbx/aggregate',
      '198.51.100.7 pbx/manual',
      '203.0.113.0/24 pbx/manual',
    ]);
    const feed = await t.call(`${FEED}?format=juniper`, { headers: { 'X-Api-Key': a.key } });
    assert.deepEqual(feed.text.trim().split('\n'), [
      '10.9.0.1/32',
      '10.9.0.2/31',
      '192.0.2.1/32',
      '192.0.2.2/31',
      '198.51.100.7/32',
      '203.0.113.0/24',
    ]);
    await setCap(a.id, { aggregate: false });
    const back = await poll(t, a.key);
    assert.equal(back.new.length, 8);
    assert.deepEqual(
      values(back.deleted),
      ['10.9.0.2/31', '192.0.2.2/31'].map((v) => `${v} pbx/aggregate`),
      'merged CIDRs are deleted when aggregation is turned off (not a value still published, 10.9.0.1)',
    );
  });

  test('after a restart a capped key is told to delete everything its view leaves out (a superset)', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'fw9' });
    await setCap(id, { entry_cap: 3 });
    assert.deepEqual(values((await poll(t, key)).new), OWN);
    t.server.services.firewall.cursors.flush();
    await t.restart(); // upstream decisions are memory-only: they are gone, the rest is read back
    const after = await poll(t, key);
    assert.deepEqual(values(after.new), OWN);
    assert.deepEqual(
      values(after.deleted),
      [...FILTERED, ...UPSTREAM].sort(),
      'what left the published set, and what is published but was never known to be sent',
    );
  });

  test('merged CIDRs served before a restart are deleted once the key stops merging', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'fw10' });
    await setCap(id, { aggregate: true });
    assert.ok(values((await poll(t, key)).new).includes('10.9.0.2/31 pbx/aggregate'));
    t.server.services.firewall.cursors.flush();
    await t.restart();
    await setCap(id, { aggregate: false });
    const after = await poll(t, key);
    assert.ok(values(after.new).includes('10.9.0.2 pbx/sip'));
    const deleted = values(after.deleted);
    assert.ok(deleted.includes('10.9.0.2/31 pbx/aggregate'), deleted.join());
    assert.ok(!deleted.some((d) => d.startsWith('10.9.0.1 ')), 'a value still published is not deleted');
  });
});
