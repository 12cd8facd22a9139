import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import { ManualClock } from '../clock.ts';
import { REPEAT_POLLS } from '../firewall/export/index.ts';
import { MANUAL_DURATION } from '../firewall/model/index.ts';
import { openDatabase } from '../storage/database.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { REMOTE, startTestServer, useTestServer, type TestServer } from '../test-support/server.ts';
import { banThroughFailures, createFilter, poll, STREAM, values, type Decision } from '../test-support/bouncer.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

const FIELDS = ['duration', 'id', 'origin', 'scenario', 'scope', 'type', 'value'];

/** The next `answers` polls of `key` list exactly `expected` in deleted, and the one after lists nothing. */
async function assertRepeated(t: TestServer, key: string, expected: string[], answers: number): Promise<void> {
  for (let i = 1; i <= answers; i++)
    assert.deepEqual(values((await poll(t, key)).deleted), expected, `repeated in answer ${i} of ${answers}`);
  assert.deepEqual((await poll(t, key)).deleted, [], `no longer after ${answers} more answers`);
}

describe('decision stream: snapshot and rules 1-5', () => {
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer();
    key = createTestApiKey(t.server.services.db).key;
    await createFilter(t, { network: '192.0.2.0', subnet: 24, deny: '203.0.113.0/24, 198.51.100.7, 0.0.0.0/0, ::/0' });
    banThroughFailures(t, 'sip', '10.1.2.3');
  });
  after(() => t.close());

  test('the first poll has every active decision of both origins, all seven fields, no envelope', async () => {
    const response = await t.call(STREAM, { headers: { 'X-Api-Key': key } });
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /application\/json/);
    assert.deepEqual(Object.keys(response.json).sort(), ['deleted', 'new']);
    assert.deepEqual(response.json.deleted, []);
    assert.deepEqual(values(response.json.new), [
      '10.1.2.3 pbx/sip',
      '198.51.100.7 pbx/manual',
      '203.0.113.0/24 pbx/manual',
    ]);
    for (const decision of response.json.new) {
      assert.deepEqual(Object.keys(decision).sort(), FIELDS);
      for (const field of FIELDS) assert.notEqual(decision[field], null);
      assert.equal(decision.type, 'ban');
      assert.equal(decision.id, crc32(decision.value + decision.scenario) & 0x7fffffff);
    }
    const byValue = Object.fromEntries(response.json.new.map((d: { value: string }) => [d.value, d]));
    assert.deepEqual(byValue['203.0.113.0/24'], {
      id: crc32('203.0.113.0/24pbx/manual') & 0x7fffffff,
      origin: 'pbx-networkfilters',
      type: 'ban',
      scope: 'Range',
      value: '203.0.113.0/24',
      duration: MANUAL_DURATION,
      scenario: 'pbx/manual',
    });
    assert.equal(byValue['198.51.100.7'].scope, 'Ip');
    assert.equal(byValue['10.1.2.3'].origin, 'pbx-fail2ban');
    assert.equal(byValue['10.1.2.3'].scope, 'Ip');
    assert.match(byValue['10.1.2.3'].duration, /^(600|599)s$/);
  });

  test('every poll repeats the full snapshot in new; startup=false, scopes, origins and unknown parameters change nothing', async () => {
    const plain = await poll(t, key);
    for (const query of [
      '?startup=false',
      '?scopes=ip',
      '?origins=crowdsec',
      '?scopes=range&origins=cscli&whatever=1',
      '?startup=TRUE',
    ]) {
      const answer = await poll(t, key, query);
      assert.deepEqual(values(answer.new), values(plain.new), query);
      assert.deepEqual(answer.deleted, [], query);
    }
  });

  test('Authorization: Bearer works like X-Api-Key', async () => {
    const response = await t.call(STREAM, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal(response.status, 200);
    assert.equal(response.json.new.length, 3);
  });

  test('polls share one snapshot: no rebuild without a change, one rebuild after it', async () => {
    const snapshots = t.server.services.firewall!.snapshots;
    await poll(t, key);
    const builds = snapshots.builds;
    await Promise.all(Array.from({ length: 10 }, () => poll(t, key)));
    // The sip ban ticks once a second, so allow at most one tick rebuild during the 10 polls.
    assert.ok(snapshots.builds - builds <= 1, `built ${snapshots.builds - builds} times for 10 polls`);
  });
});

describe('decision stream: IPv6 and ranges', () => {
  const t = useTestServer();

  test('IPv6 bans and IPv4/IPv6 ranges are published canonically with the right scope, and removed per entry', async () => {
    const key = createTestApiKey(t.server.services.db).key;
    const filter = await createFilter(t, {
      permit: '2001:db8:1::/48',
      deny: '2001:DB8:FFFF::/48, 2001:db8:ffff:0::7, 198.51.100.0/25',
    });
    banThroughFailures(t, 'sip', '2001:DB8:0:0::abcd');
    banThroughFailures(t, 'iax', '::ffff:192.0.2.55');
    const first = await poll(t, key);
    const scopes = Object.fromEntries(first.new.map((d) => [`${d.value} ${d.scenario}`, d.scope]));
    assert.deepEqual(scopes, {
      '2001:db8:ffff::/48 pbx/manual': 'Range',
      '2001:db8:ffff::7 pbx/manual': 'Ip',
      '198.51.100.0/25 pbx/manual': 'Range',
      '2001:db8::abcd pbx/sip': 'Ip',
      '192.0.2.55 pbx/iax': 'Ip',
    });
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'PATCH', body: { deny: '2001:db8:ffff::7' } });
    await t.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '2001:db8::ABCD' } });
    const next = await poll(t, key);
    assert.deepEqual(values(next.deleted), [
      '198.51.100.0/25 pbx/manual',
      '2001:db8::abcd pbx/sip',
      '2001:db8:ffff::/48 pbx/manual',
    ]);
    assert.deepEqual(values(next.new), ['192.0.2.55 pbx/iax', '2001:db8:ffff::7 pbx/manual']);
  });
});

describe('decision stream: gzip for large snapshots', () => {
  test('a client that accepts gzip gets the shared compressed snapshot plus its own deleted, decoding to the same answer', async () => {
    const t = await startTestServer();
    try {
      const { key } = createTestApiKey(t.server.services.db);
      const deny = Array.from({ length: 200 }, (_, i) => `198.18.${i >> 8}.${i & 255}`);
      const filter = await createFilter(t, { permit: '10.0.0.0/8', deny: deny.join(',') });
      const url = `${t.url}${STREAM}`;
      const zipped = await fetch(url, { headers: { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' } });
      assert.equal(zipped.status, 200);
      assert.equal(zipped.headers.get('content-encoding'), 'gzip');
      const first = (await zipped.json()) as { new: Decision[]; deleted: Decision[] };
      assert.equal(first.new.length, 200);
      assert.deepEqual(first.deleted, []);

      await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, {
        method: 'PATCH',
        body: { deny: deny.slice(1).join(',') },
      });
      const second = await fetch(url, { headers: { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' } });
      assert.equal(second.headers.get('content-encoding'), 'gzip');
      const body = (await second.json()) as { new: Decision[]; deleted: Decision[] };
      assert.equal(body.new.length, 199);
      assert.deepEqual(values(body.deleted), ['198.18.0.0 pbx/manual']);

      const plain = await poll(t, key, '', { headers: { 'Accept-Encoding': 'identity' } });
      assert.deepEqual(plain.new, body.new, 'same snapshot either way');
      const small = createTestApiKey(t.server.services.db);
      await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'PATCH', body: { deny: '198.18.9.9' } });
      const tiny = await fetch(url, { headers: { 'X-Api-Key': small.key, 'Accept-Encoding': 'gzip' } });
      assert.equal(tiny.headers.get('content-encoding'), null, 'small answers are not worth compressing');
    } finally {
      await t.close();
    }
  });
});

describe('GET /v1/decisions?ip= (CrowdSec live mode)', () => {
  test('only the decisions that apply to the address; null when none; 400 for a bad address', async () => {
    const t = await startTestServer();
    try {
      const { key } = createTestApiKey(t.server.services.db);
      await createFilter(t, { permit: '10.0.0.0/8', deny: '2001:db8:ffff::/48, 198.51.100.0/24' });
      banThroughFailures(t, 'sip', '198.51.100.7');
      const ask = (ip: string) =>
        t.call(`/pbxcore/api/v3/firewall-bouncer/v1/decisions?ip=${encodeURIComponent(ip)}`, {
          headers: { 'X-Api-Key': key },
        });
      assert.deepEqual(values((await ask('198.51.100.7')).json), [
        '198.51.100.0/24 pbx/manual',
        '198.51.100.7 pbx/sip',
      ]);
      assert.deepEqual(values((await ask('2001:db8:ffff::9')).json), ['2001:db8:ffff::/48 pbx/manual']);
      assert.deepEqual(values((await ask('::ffff:198.51.100.9')).json), ['198.51.100.0/24 pbx/manual']);
      const none = await ask('8.8.8.8');
      assert.equal(none.status, 200);
      assert.equal(none.text, 'null');
      const bad = await ask('fe80::1%eth0');
      assert.equal(bad.status, 400);
      assert.equal(typeof bad.json.message, 'string');
    } finally {
      await t.close();
    }
  });
});

describe('decision stream: per-key cursors', () => {
  const t = useTestServer();

  test('two keys each keep their own cursor', async () => {
    const a = createTestApiKey(t.server.services.db, { description: 'bouncer A' }).key;
    const b = createTestApiKey(t.server.services.db, { description: 'bouncer B' }).key;
    banThroughFailures(t, 'http', '10.9.0.1');
    banThroughFailures(t, 'ami', '10.9.0.2');
    assert.equal((await poll(t, a)).new.length, 2);
    assert.equal((await poll(t, b)).new.length, 2);

    const lifted = await t.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '10.9.0.1' } });
    assert.equal(lifted.status, 200);
    assert.equal(lifted.json.data.lifted, 1);

    const firstA = await poll(t, a);
    assert.deepEqual(values(firstA.deleted), ['10.9.0.1 pbx/http']);
    assert.deepEqual(Object.keys(firstA.deleted[0]!).sort(), FIELDS);
    assert.equal(firstA.deleted[0]!.origin, 'pbx-fail2ban');
    assert.deepEqual(values(firstA.new), ['10.9.0.2 pbx/ami']);
    // A deletion is carried by the key's next REPEAT_POLLS answers (a cut answer loses nothing), then no more.
    await assertRepeated(t, a, ['10.9.0.1 pbx/http'], REPEAT_POLLS - 1);
    assert.deepEqual(values((await poll(t, b)).deleted), ['10.9.0.1 pbx/http'], 'B still gets it');
    await assertRepeated(t, b, ['10.9.0.1 pbx/http'], REPEAT_POLLS - 1);
  });

  test('startup=true mid-stream: full snapshot, no deleted, and the cursor is replaced', async () => {
    const key = createTestApiKey(t.server.services.db).key;
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.0/24' });
    await poll(t, key);
    assert.equal((await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' })).status, 200);
    const startup = await poll(t, key, '?startup=true');
    assert.deepEqual(startup.deleted, []);
    assert.ok(!values(startup.new).includes('198.51.100.0/24 pbx/manual'));
    assert.deepEqual((await poll(t, key)).deleted, [], 'the next poll diffs against the startup snapshot');
  });

  test('a filter entry removed from a deny list is deleted, a re-added one is new again', async () => {
    const key = createTestApiKey(t.server.services.db).key;
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.1, 198.51.100.2' });
    await poll(t, key);
    assert.equal(
      (await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'PATCH', body: { deny: '198.51.100.2' } }))
        .status,
      200,
    );
    const next = await poll(t, key);
    assert.deepEqual(values(next.deleted), ['198.51.100.1 pbx/manual']);
    assert.equal(next.deleted[0]!.duration, '0s', 'a deletion carries nothing left, whatever it was');
    assert.equal(
      (
        await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, {
          method: 'PATCH',
          body: { deny: '198.51.100.1,198.51.100.2' },
        })
      ).status,
      200,
    );
    const again = await poll(t, key);
    assert.deepEqual(again.deleted, []);
    assert.ok(values(again.new).includes('198.51.100.1 pbx/manual'));
  });

  test('poll statistics per key are recorded for getBouncerStatus', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'status probe' });
    await poll(t, key);
    await poll(t, key);
    // A new cursor version is written at once (a crash must not lose it); renewals and counts follow within a second.
    const stored = t.server.services.db.prepare('SELECT version FROM bouncer_cursors WHERE key_id = ?').get(id) as {
      version: number;
    };
    assert.equal(stored.version, t.server.services.firewall!.log.version);
    let row:
      | {
          description: string;
          polls: number;
          lastPollIp: string;
          lastNew: number;
          lastDeleted: number;
          lastPollAt: string;
        }
      | undefined;
    for (let i = 0; i < 30 && row?.polls !== 2; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      const status = await t.call('/pbxcore/api/v3/firewall:getBouncerStatus');
      assert.equal(status.status, 200);
      row = status.json.data.bouncers.find((r: { keyId: number }) => r.keyId === id);
    }
    assert.ok(row);
    assert.equal(row.description, 'status probe');
    assert.equal(row.polls, 2);
    assert.equal(row.lastPollIp, '127.0.0.1');
    assert.equal(typeof row.lastNew, 'number');
    assert.equal(row.lastDeleted, 0);
    assert.ok(Date.now() - Date.parse(row.lastPollAt) < 60_000);
  });
});

describe('decision stream: time (injectable clock)', () => {
  let t: TestServer;
  const clock = new ManualClock(Date.now()); // the queue stamps jobs with this clock and workers compare with Date.now()
  before(async () => {
    t = await startTestServer({ clock });
  });
  after(() => t.close());

  test('a ban ends exactly on time: 1s left just before, gone and deleted at expiry; the guard lifts too', async () => {
    const key = createTestApiKey(t.server.services.db).key;
    banThroughFailures(t, 'http', REMOTE);
    const first = await poll(t, key);
    assert.deepEqual(
      first.new.map((d) => [d.value, d.duration]),
      [[REMOTE, '600s']],
    );
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 403, 'banned address refused on every route');

    clock.advance(599_500);
    assert.deepEqual(
      (await poll(t, key)).new.map((d) => d.duration),
      ['1s'],
    );
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 403);

    clock.advance(500);
    const expired = await poll(t, key);
    assert.deepEqual(expired.new, []);
    assert.deepEqual(values(expired.deleted), [`${REMOTE} pbx/http`]);
    assert.equal(expired.deleted[0]!.duration, '0s');
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 200, 'no sweep delay for the guard either');
  });

  test('durations tick: the snapshot is rebuilt at most once a second', async () => {
    const key = createTestApiKey(t.server.services.db).key;
    banThroughFailures(t, 'sip', '10.20.0.1');
    const snapshots = t.server.services.firewall!.snapshots;
    await poll(t, key);
    const builds = snapshots.builds;
    clock.advance(400);
    assert.equal((await poll(t, key)).new[0]!.duration, '600s');
    assert.equal(snapshots.builds, builds, 'no rebuild within the second');
    clock.advance(700);
    assert.equal((await poll(t, key)).new[0]!.duration, '599s');
    assert.equal(snapshots.builds, builds + 1);
  });

  test('a cursor silent for over 1 h is still diffed: its deletions come at its next poll', async () => {
    const key = createTestApiKey(t.server.services.db).key;
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.10, 198.51.100.11' });
    // Only this test's entries (earlier tests' bans expire meanwhile and are deleted too).
    const mine = (answer: { deleted: Decision[] }) =>
      values(answer.deleted).filter((v) => v.startsWith('198.51.100.1'));
    await poll(t, key);
    clock.advance(59 * 60_000);
    await poll(t, key); // renews
    clock.advance(59 * 60_000);
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'PATCH', body: { deny: '198.51.100.11' } });
    assert.deepEqual(mine(await poll(t, key)), ['198.51.100.10 pbx/manual'], 'renewed cursor still live at 118 min');

    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' });
    clock.advance(60 * 60_000);
    clock.advance(3 * 24 * 60 * 60_000);
    const afterOutage = await poll(t, key);
    assert.deepEqual(
      mine(afterOutage),
      ['198.51.100.10 pbx/manual', '198.51.100.11 pbx/manual'],
      'removed during a 3-day outage, still deleted (and .10 repeated)',
    );
    assert.ok(!values(afterOutage.new).includes('198.51.100.11 pbx/manual'));
    // .10 was carried by 2 answers so far, .11 by 1: each goes on until REPEAT_POLLS answers carried it.
    for (let i = 2; i <= REPEAT_POLLS; i++) {
      const expected =
        i <= REPEAT_POLLS - 1 ? ['198.51.100.10 pbx/manual', '198.51.100.11 pbx/manual'] : ['198.51.100.11 pbx/manual'];
      assert.deepEqual(mine(await poll(t, key)), expected, `answer ${i} after the outage`);
    }
    assert.deepEqual(mine(await poll(t, key)), [], 'then no more');
  });
});

describe('decision stream: restart persistence', () => {
  test('a ban lifted, a ban expired and a filter entry deleted while stopped still reach each key in deleted', async () => {
    const dataDir = makeTempDir('pbx-bouncer-restart-');
    const clock = new ManualClock(Date.now()); // the queue stamps jobs with this clock and workers compare with Date.now()
    try {
      let t = await startTestServer({ keepDataDir: dataDir, clock });
      const a = createTestApiKey(t.server.services.db, { description: 'A' }).key;
      const b = createTestApiKey(t.server.services.db, { description: 'B' }).key;
      const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.20' });
      banThroughFailures(t, 'sip', '10.30.0.1');
      banThroughFailures(t, 'iax', '10.30.0.2');
      t.server.services.firewall!.bans.ban('ami', '10.30.0.3', 'short', 60);
      assert.equal((await poll(t, a)).new.length, 4);
      assert.equal((await poll(t, b)).new.length, 4);
      await t.close();

      // While stopped: the operator's tools change the database, and time passes.
      const db = openDatabase(join(dataDir, 'pbx.sqlite'));
      db.prepare("UPDATE firewall_bans SET lifted_at = 1 WHERE ip = '10.30.0.1'").run();
      db.prepare('DELETE FROM network_filters WHERE id = ?').run(filter.id);
      db.close();
      clock.advance(120_000);

      t = await startTestServer({ keepDataDir: dataDir, clock });
      const expected = ['10.30.0.1 pbx/sip', '10.30.0.3 pbx/ami', '198.51.100.20 pbx/manual'];
      const afterA = await poll(t, a);
      assert.deepEqual(values(afterA.deleted), expected);
      assert.deepEqual(values(afterA.new), ['10.30.0.2 pbx/iax']);
      await t.close();

      // And across a second restart, B (which has not polled yet) still gets the same deleted.
      t = await startTestServer({ keepDataDir: dataDir, clock });
      assert.deepEqual(values((await poll(t, b)).deleted), expected);
      await assertRepeated(t, a, expected, REPEAT_POLLS - 1);
      await t.close();
    } finally {
      removeTempDir(dataDir);
    }
  });
});
