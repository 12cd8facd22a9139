import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { openDatabase } from '../storage/database.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { startTestServer, useTestServer, type TestServer } from '../test-support/server.ts';
import { banThroughFailures, createFilter, poll, STREAM } from '../test-support/bouncer.ts';
import { withTempDir } from '../test-support/temp-db.ts';
import { FIREWALL } from '../test-support/v3-paths.ts';

interface Status {
  bouncers: Array<{
    keyId: number;
    description: string;
    state: string;
    refusal: { code: string; ip: string; reason: string } | null;
    lastPollAt: string | null;
  }>;
  rejections: Array<{ ip: string; keyId: number | null; keyDescription: string | null; reason: string }>;
}

async function status(t: TestServer): Promise<Status> {
  const answer = await t.call(`${FIREWALL}:getBouncerStatus`);
  assert.equal(answer.status, 200);
  return answer.json.data;
}

/** Sets (or clears, with null) a key's expiry through the API, keeping its description. */
const setExpiry = (t: TestServer, id: number, expiresAt: string | null) =>
  t.call(`/pbxcore/api/v3/api-keys/${id}`, {
    method: 'PATCH',
    body: { description: 'edge firewall', expires_at: expiresAt },
  });

/** The cursor writes are batched for at most a second: flush them, as the timer would. */
const flush = (t: TestServer) => t.server.services.firewall!.cursors.flush();

describe('enforcement visible: bouncer state from its last attempt', () => {
  let t: TestServer;
  const clock = new ManualClock(Date.now());
  before(async () => {
    t = await startTestServer({ clock });
  });
  after(() => t.close());

  test(
    'served, then refused with the reason and the key named once the key expired, served again ' +
      'once fixed, silent after 30 s',
    async () => {
      const { id, key } = createTestApiKey(t.server.services.db, { description: 'edge firewall' });
      await poll(t, key);
      flush(t);
      assert.equal((await status(t)).bouncers.find((b) => b.keyId === id)!.state, 'served');

      const expiry = new Date(clock.now() + 60_000).toISOString();
      assert.equal((await setExpiry(t, id, expiry)).status, 200);
      clock.advance(61_000);
      const refused = await t.call(STREAM, { headers: { 'X-Api-Key': key } });
      assert.equal(refused.status, 401);
      flush(t);
      const after = await status(t);
      const bouncer = after.bouncers.find((b) => b.keyId === id)!;
      assert.equal(bouncer.state, 'refused', 'a refused bouncer is never shown as served');
      assert.equal(bouncer.refusal!.code, 'expired');
      assert.match(bouncer.refusal!.reason, /expired/);
      const rejection = after.rejections.find((r) => r.keyId === id)!;
      assert.equal(rejection.keyDescription, 'edge firewall', 'the refusal names the key');

      assert.equal((await setExpiry(t, id, null)).status, 200);
      await poll(t, key);
      flush(t);
      assert.equal((await status(t)).bouncers.find((b) => b.keyId === id)!.state, 'served');

      // The status is read in a worker, on the real clock: age the stored last poll instead.
      const age = clock.now() - Date.now() + 31_000;
      t.server.services.db
        .prepare(
          'UPDATE bouncer_cursors SET last_poll_at = last_poll_at - ?, refused_at = refused_at - ? WHERE key_id = ?',
        )
        .run(age, age, id);
      assert.equal((await status(t)).bouncers.find((b) => b.keyId === id)!.state, 'silent');
    },
  );

  test('a key allowed on the export that never polled is "never"', async () => {
    const { id } = createTestApiKey(t.server.services.db, { description: 'not yet installed' });
    assert.equal((await status(t)).bouncers.find((b) => b.keyId === id)!.state, 'never');
  });
});

describe('enforcement visible: delivery counts and the address lookup', () => {
  const t = useTestServer();

  test('each active ban says how many of the active bouncer keys were sent it', async () => {
    const keys = [1, 2, 3].map((n) => createTestApiKey(t.server.services.db, { description: `fw${n}` }));
    for (const { key } of keys) await poll(t, key);
    banThroughFailures(t, 'sip', '203.0.113.50');
    await poll(t, keys[0]!.key);
    await poll(t, keys[1]!.key);
    flush(t);
    const bans = (await t.call(`${FIREWALL}:getBannedIps`)).json.data as Array<{
      ip: string;
      delivery: { served: number; of: number; keys: Array<{ description: string }> };
    }>;
    const ban = bans.find((b) => b.ip === '203.0.113.50')!;
    assert.deepEqual({ served: ban.delivery.served, of: ban.delivery.of }, { served: 2, of: 3 });
    assert.deepEqual(ban.delivery.keys.map((k) => k.description).sort(), ['fw1', 'fw2']);
  });

  test('lookup lists every decision that covers an address, with its origin, time left and bouncers, and what protects it', async () => {
    const { key } = createTestApiKey(t.server.services.db, { description: 'lookup bouncer' });
    assert.equal(
      (
        await t.call(`${FIREWALL}:banIp`, {
          method: 'POST',
          body: { ip: '198.51.101.0/24', duration: 3600, reason: 'scanner range' },
        })
      ).status,
      201,
    );
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.101.5', description: 'Blocklist' });
    banThroughFailures(t, 'sip', '198.51.101.5');
    await poll(t, key);
    flush(t);

    const answer = await t.call(`${FIREWALL}:lookup?ip=198.51.101.5`);
    assert.equal(answer.status, 200);
    const lookup = answer.json.data;
    assert.equal(lookup.blocked, true);
    const bySource = lookup.decisions
      .map((d: { value: string; scenario: string; source: string }) => `${d.source} ${d.value} ${d.scenario}`)
      .sort();
    assert.deepEqual(bySource, [
      'ban 198.51.101.0/24 pbx/manual',
      'ban 198.51.101.5 pbx/sip',
      'filter 198.51.101.5 pbx/manual',
    ]);
    const range = lookup.decisions.find((d: { value: string }) => d.value === '198.51.101.0/24');
    assert.ok(range.secondsLeft > 3500 && range.secondsLeft <= 3600);
    assert.equal(range.origin, 'pbx-networkfilters');
    assert.equal(range.ban.reason, 'scanner range');
    assert.equal(
      range.delivery.keys.some((k: { description: string }) => k.description === 'lookup bouncer'),
      true,
    );
    const entry = lookup.decisions.find((d: { source: string }) => d.source === 'filter');
    assert.deepEqual(entry.filter, { id: filter.id, description: 'Blocklist', permit: '192.0.2.0/24' });
    assert.equal(entry.secondsLeft, null);

    const nothing = await t.call(`${FIREWALL}:lookup?ip=203.0.113.200`);
    assert.equal(nothing.status, 200);
    assert.deepEqual(
      { ...nothing.json.data, address: undefined },
      { address: undefined, blocked: false, loopback: null, decisions: [], protections: [], history: [] },
    );
  });

  test('lookup names the whitelist and trusted entries that protect an address, and the reason for loopback', async () => {
    await createFilter(t, { permit: '10.77.0.0/16', description: 'Head office', newer_block_ip: true });
    assert.equal(
      (await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { whitelist: '10.77.5.0/24' } })).status,
      200,
    );
    const protectedAnswer = (await t.call(`${FIREWALL}:lookup?ip=10.77.5.9`)).json.data;
    assert.deepEqual(
      protectedAnswer.protections.map((p: { kind: string; value: string }) => `${p.kind} ${p.value}`).sort(),
      ['trusted-filter 10.77.0.0/16', 'whitelist 10.77.5.0/24'],
    );
    const loopback = (await t.call(`${FIREWALL}:lookup?ip=::1`)).json.data;
    assert.match(loopback.loopback, /loopback/);
  });

  test('a malformed address gets 400 with the reason, never a 5xx', async () => {
    for (const bad of ['', 'not-an-ip', '10.0.0.0/8', 'fe80::1%25eth0', '999.1.1.1', 'a'.repeat(300)]) {
      const answer = await t.call(`${FIREWALL}:lookup?ip=${encodeURIComponent(bad)}`);
      assert.equal(answer.status, 400, bad);
      // In words (issue 6/6): it names the address asked about, never the parser's jargon.
      assert.match(answer.json.messages.error[0], /address/);
    }
  });
});

describe('a change costs what changed, whatever the number of keys', () => {
  for (const keyCount of [5, 150]) {
    test(`${keyCount} keys: one small filter change renders one chunk and one deleted tail, not one per key`, async () => {
      const t = await startTestServer();
      try {
        const { db, firewall } = t.server.services;
        const deny = Array.from({ length: 20_000 }, (_, n) => `100.64.${(n >> 8) & 255}.${n & 255}`).join(',');
        db.prepare(
          "INSERT INTO network_filters (permit, deny, description, rules) VALUES ('0.0.0.0/0', ?, 'blocklist', '{}')",
        ).run(deny);
        firewall!.state.reload();
        const small = await createFilter(t, { permit: '192.0.2.7/32', deny: '198.51.100.77' });
        const keys = Array.from({ length: keyCount }, (_, i) => createTestApiKey(db, { description: `k${i}` }).key);
        for (const key of keys) await poll(t, key, '', { headers: { 'Accept-Encoding': 'gzip' } });
        const { snapshots, deletedTails, compressor } = firewall!;
        const before = {
          rendered: snapshots.rendered,
          tails: deletedTails.renders,
          compressed: compressor.compressedBytes,
        };
        assert.equal((await t.call(`${FIREWALL}/${small.id}`, { method: 'DELETE' })).status, 200);
        for (const key of keys) {
          // Under load a gzip poll may be served the previous, already compressed snapshot (by
          // design): poll again until the deletion arrives, as a bouncer would.
          let deleted = 0;
          for (let i = 0; i < 100 && deleted === 0; i++) {
            deleted = (await poll(t, key, '', { headers: { 'Accept-Encoding': 'gzip' } })).deleted.length;
            if (deleted === 0) await new Promise((r) => setTimeout(r, 20));
          }
          assert.equal(deleted, 1);
        }
        const rendered = snapshots.rendered - before.rendered;
        assert.ok(rendered < 1_000, `rendered ${rendered} members for one removed entry (of 20,001)`);
        assert.equal(
          deletedTails.renders - before.tails,
          1,
          'one deleted tail shared by every key at the same version',
        );
        const compressed = compressor.compressedBytes - before.compressed;
        assert.ok(compressed < 200_000, `compressed ${compressed} bytes again for a change of one entry`);
      } finally {
        await t.close();
      }
    });
  }
});

describe('no state of a stored cursor can make a poll fail', () => {
  test('damaged, negative, future and huge windows: every poll is answered, the worst case a larger deleted', async () => {
    await withTempDir('pbx-cursor-damage-', async (dataDir) => {
      let t = await startTestServer({ keepDataDir: dataDir });
      const { id, key } = createTestApiKey(t.server.services.db, { description: 'damaged' });
      const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.90, 198.51.100.91' });
      await poll(t, key);
      await t.call(`${FIREWALL}/${filter.id}`, { method: 'PATCH', body: { deny: '198.51.100.91' } });
      await t.close();
      const damages: Array<[string, number | null]> = [
        ['{"x":', null],
        ['[1e309, "a", null]', -7],
        ['[-5, -1]', -1],
        ['[99999999999]', 99999999999],
        ['"[]"', 0],
        ['', null],
      ];
      for (const [sent, version] of damages) {
        const db = openDatabase(join(dataDir, 'pbx.sqlite'));
        db.prepare('UPDATE bouncer_cursors SET sent_versions = ?, version = ? WHERE key_id = ?').run(sent, version, id);
        db.close();
        t = await startTestServer({ keepDataDir: dataDir });
        const answer = await t.call(STREAM, { headers: { 'X-Api-Key': key } });
        assert.equal(answer.status, 200, `window ${sent} / version ${version}: ${answer.text.slice(0, 200)}`);
        assert.ok(Array.isArray(answer.json.new) && Array.isArray(answer.json.deleted));
        assert.ok(answer.json.new.some((d: { value: string }) => d.value === '198.51.100.91'));
        await t.close();
      }
    });
  });
});
