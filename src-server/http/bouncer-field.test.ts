import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, test } from 'node:test';
import { REPEAT_POLLS } from '../firewall/export/index.ts';
import { decisionId, MANUAL_DURATION, MAX_DECISION_SECONDS } from '../firewall/model/index.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { type TestServer, useTestServer } from '../test-support/server.ts';
import { banThroughFailures, createFilter, poll, STREAM, values, type Decision } from '../test-support/bouncer.ts';
import { waitUntil } from '../test-support/wait.ts';

const DECISIONS = '/pbxcore/api/v3/firewall-bouncer/v1/decisions';
const METRICS = '/pbxcore/api/v3/firewall-bouncer/v1/usage-metrics';

/** Go's duration text as the bouncers parse it, in seconds. */
function seconds(duration: string): number {
  const match = /^(\d+)(h|s)$/.exec(duration);
  assert.ok(match, `unexpected duration ${duration}`);
  return Number(match[1]) * (match[2] === 'h' ? 3600 : 1);
}

describe('bouncer export in the field: durations, identity, expansion', () => {
  const t = useTestServer();

  test('no decision lasts longer than ipset accepts (2147483 s)', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '203.0.113.0/24' });
    banThroughFailures(t, 'sip', '10.9.9.9');
    const answer = await poll(t, key, '?startup=true');
    assert.equal(answer.new.length, 2);
    for (const decision of answer.new) assert.ok(seconds(decision.duration) <= MAX_DECISION_SECONDS, decision.duration);
    assert.equal(answer.new.find((d) => d.scenario === 'pbx/manual')!.duration, MANUAL_DURATION);
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' });
    await t.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '10.9.9.9' } });
  });

  test('two bans whose ids collide are both published, and both deleted', async () => {
    assert.equal(
      decisionId('26.95.120.191', 'pbx/manual'),
      decisionId('63.148.128.212', 'pbx/manual'),
      'a real crc32 collision',
    );
    const { key } = createTestApiKey(t.server.services.db);
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '26.95.120.191, 63.148.128.212' });
    const first = await poll(t, key);
    assert.deepEqual(values(first.new), ['26.95.120.191 pbx/manual', '63.148.128.212 pbx/manual']);
    assert.equal(first.new[0]!.id, first.new[1]!.id, 'the id is only a label');
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' });
    assert.deepEqual(values((await poll(t, key)).deleted), ['26.95.120.191 pbx/manual', '63.148.128.212 pbx/manual']);
  });

  test('a key with expand_ranges gets each address of a range as an Ip decision, and their removal', async () => {
    const created = await t.call('/pbxcore/api/v3/api-keys', {
      method: 'POST',
      body: {
        description: 'nftables bouncer',
        allowed_paths: { '/api/v3/firewall-bouncer': 'read' },
        expand_ranges: true,
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.expand_ranges, true);
    const expandingKey: string = created.json.data.key;
    const plain = createTestApiKey(t.server.services.db).key;
    const filter = await createFilter(t, {
      permit: '192.0.2.0/24',
      deny: '198.51.100.0/30, 198.51.100.2, 10.0.0.0/8, 2001:db8::/126',
    });

    const expanded = await poll(t, expandingKey);
    assert.deepEqual(values(expanded.new), [
      '10.0.0.0/8 pbx/manual', // wider than /16: stays a range
      '198.51.100.0 pbx/manual',
      '198.51.100.1 pbx/manual',
      '198.51.100.2 pbx/manual',
      '198.51.100.3 pbx/manual',
      '2001:db8:: pbx/manual',
      '2001:db8::1 pbx/manual',
      '2001:db8::2 pbx/manual',
      '2001:db8::3 pbx/manual',
    ]);
    assert.ok(expanded.new.filter((d) => d.value !== '10.0.0.0/8').every((d) => d.scope === 'Ip'));
    assert.deepEqual(values((await poll(t, plain)).new), [
      '10.0.0.0/8 pbx/manual',
      '198.51.100.0/30 pbx/manual',
      '198.51.100.2 pbx/manual',
      '2001:db8::/126 pbx/manual',
    ]);

    // The /30 goes; its address .2 is still denied on its own, so it is not deleted.
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, {
      method: 'PATCH',
      body: { deny: '198.51.100.2, 10.0.0.0/8, 2001:db8::/126' },
    });
    const after = await poll(t, expandingKey);
    assert.deepEqual(values(after.deleted), [
      '198.51.100.0 pbx/manual',
      '198.51.100.1 pbx/manual',
      '198.51.100.3 pbx/manual',
    ]);
    assert.deepEqual(values((await poll(t, plain)).deleted), ['198.51.100.0/30 pbx/manual']);
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' });
  });
});

describe('bouncer export: a poll cut mid-body loses no deletion', () => {
  const t = useTestServer();

  /** Reads the first bytes of a stream answer, then drops the connection. */
  function pollAndHangUp(key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${t.url}${STREAM}`,
        { headers: { 'X-Api-Key': key, 'Accept-Encoding': 'identity' }, agent: false },
        (res) => {
          res.once('data', (chunk: Buffer) => {
            res.pause();
            req.destroy();
            resolve(chunk.length);
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
      req.end();
    });
  }

  test('polls cut mid-body count as answers, and the deletion is repeated until a complete one carries it', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const { db, firewall } = t.server.services;
    // 150,000 bans: about 25 MB of JSON, more than loopback's socket buffers hold (~10 MB), so the
    // server is still writing when the client hangs up.
    db.transaction(() => {
      for (let i = 0; i < 150_000; i++)
        firewall!.bans.ban('sip', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'load', 3600);
    })();
    const filter = await createFilter(t, { permit: '192.0.2.0/24', deny: '203.0.113.9' });
    await poll(t, key);
    const id = await keyId(t, key);
    const served = firewall!.cursors.servedVersion(id);
    assert.notEqual(served, undefined, 'recorded before the first byte');
    await t.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' });
    for (let i = 0; i < REPEAT_POLLS - 1; i++) {
      const got = await pollAndHangUp(key);
      assert.ok(got > 0);
    }
    await waitUntil('every cut answer recorded', () => firewall!.cursors.get(id)!.sent.length >= REPEAT_POLLS);
    assert.equal(firewall!.cursors.get(id)!.sent.length, REPEAT_POLLS, 'every cut answer was recorded as sent');
    const next = await poll(t, key, '', { headers: { 'Accept-Encoding': 'identity' } });
    assert.deepEqual(
      values(next.deleted),
      ['203.0.113.9 pbx/manual'],
      `still carried by the ${REPEAT_POLLS}th answer after the removal`,
    );
    assert.equal(next.new.length, 150_000);
    assert.deepEqual(
      (await poll(t, key, '', { headers: { 'Accept-Encoding': 'identity' } })).deleted,
      [],
      'and not after',
    );
  });
});

async function keyId(t: TestServer, key: string): Promise<number> {
  const { findApiKey } = await import('../auth/api-key-store.ts');
  return findApiKey(t.server.services.db, key)!.id;
}

describe('GET /v1/decisions filters like the CrowdSec LAPI', () => {
  let key: string;
  const ask = async (query: string) => t.call(`${DECISIONS}${query}`, { headers: { 'X-Api-Key': key } });
  const listed = async (query: string) => {
    const response = await ask(query);
    assert.equal(response.status, 200, `${query}: ${response.text}`);
    return response.json === null ? null : values(response.json as Decision[]);
  };
  const t = useTestServer();
  before(async () => {
    key = createTestApiKey(t.server.services.db).key;
    await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.0/24, 203.0.113.7' });
    banThroughFailures(t, 'sip', '198.51.100.7');
    banThroughFailures(t, 'http', '10.1.1.1');
  });

  test('each filter selects, and a filter that matches nothing answers null', async () => {
    assert.deepEqual(await listed(''), [
      '10.1.1.1 pbx/http',
      '198.51.100.0/24 pbx/manual',
      '198.51.100.7 pbx/sip',
      '203.0.113.7 pbx/manual',
    ]);
    assert.deepEqual(await listed('?scope=ip'), [
      '10.1.1.1 pbx/http',
      '198.51.100.7 pbx/sip',
      '203.0.113.7 pbx/manual',
    ]);
    assert.deepEqual(await listed('?scopes=Range'), ['198.51.100.0/24 pbx/manual']);
    assert.equal(await listed('?scope=Country&value=FR'), null);
    assert.deepEqual(await listed('?scope=ip&value=203.0.113.7'), ['203.0.113.7 pbx/manual']);
    assert.equal(await listed('?value=203.0.113.8'), null);
    assert.equal(await listed('?type=captcha'), null);
    assert.equal((await listed('?type=ban'))!.length, 4);
    assert.deepEqual(await listed('?origins=pbx-fail2ban'), ['10.1.1.1 pbx/http', '198.51.100.7 pbx/sip']);
    assert.deepEqual(await listed('?origins=crowdsec,pbx-networkfilters'), [
      '198.51.100.0/24 pbx/manual',
      '203.0.113.7 pbx/manual',
    ]);
    assert.equal(await listed('?origins=crowdsec'), null);
    assert.deepEqual(await listed('?scenarios_containing=SIP,http'), ['10.1.1.1 pbx/http', '198.51.100.7 pbx/sip']);
    assert.deepEqual(await listed('?scenarios_not_containing=manual'), ['10.1.1.1 pbx/http', '198.51.100.7 pbx/sip']);
    assert.deepEqual(await listed('?ip=198.51.100.7'), ['198.51.100.0/24 pbx/manual', '198.51.100.7 pbx/sip']);
    assert.deepEqual(await listed('?ip=::ffff:198.51.100.9'), ['198.51.100.0/24 pbx/manual']);
    assert.equal(await listed('?ip=192.0.2.1'), null);
    assert.deepEqual(await listed('?range=198.51.100.0/25'), ['198.51.100.0/24 pbx/manual']);
    assert.deepEqual(await listed('?range=198.51.100.0/24&contains=false'), [
      '198.51.100.0/24 pbx/manual',
      '198.51.100.7 pbx/sip',
    ]);
    assert.deepEqual(await listed('?ip=198.51.100.7&scenarios_not_containing=manual'), ['198.51.100.7 pbx/sip']);
  });

  test('an unknown filter or a malformed value is 400 with a message, never the whole list', async () => {
    for (const query of [
      '?bogus=1',
      '?ip=300.1.1.1',
      '?ip=198.51.100.0/24',
      '?range=garbage',
      '?contains=maybe&ip=1.2.3.4',
      '?ip=fe80::1%25eth0',
    ]) {
      const response = await ask(query);
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(typeof response.json.message, 'string');
      assert.equal(response.json.result, false);
    }
  });
});

describe('POST /v1/usage-metrics', () => {
  const t = useTestServer();

  const report = (dropped: number) => ({
    remediation_components: [
      {
        type: 'crowdsec-firewall-bouncer',
        name: 'fw-edge',
        version: 'v0.0.31-debian',
        os: { name: 'debian', version: '12' },
        feature_flags: [],
        utc_startup_timestamp: 1_700_000_000,
        last_pull: 1_700_000_100,
        metrics: [
          {
            meta: { window_size_seconds: 900, utc_now_timestamp: 1_700_000_900 },
            items: [
              {
                name: 'dropped',
                value: dropped,
                unit: 'packet',
                labels: { origin: 'pbx-networkfilters', ip_type: 'ipv4' },
              },
              { name: 'active_decisions', value: 3, unit: 'ip', labels: { origin: 'pbx-fail2ban', ip_type: 'ipv4' } },
            ],
          },
        ],
      },
    ],
  });

  test('a bouncer key (read on the export) reports; the status shows type, version, OS and dropped counts per origin', async () => {
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'edge' });
    await poll(t, key, '', { headers: { 'User-Agent': 'crowdsec-firewall-bouncer/v0.0.31' } });
    for (const dropped of [5, 7]) {
      const answer = await t.remote(METRICS, { method: 'POST', headers: { 'X-Api-Key': key }, body: report(dropped) });
      assert.equal(answer.status, 201, answer.text);
    }
    t.server.services.firewall!.hosts.flush();
    const status = (await t.call('/pbxcore/api/v3/firewall:getBouncerStatus')).json.data;
    const bouncer = status.bouncers.find((b: { keyId: number }) => b.keyId === id);
    const host = bouncer.hosts.find((h: { ip: string }) => h.ip === '127.0.0.2');
    assert.equal(host.type, 'crowdsec-firewall-bouncer');
    assert.equal(host.version, 'v0.0.31-debian');
    assert.equal(host.os, 'debian 12');
    assert.deepEqual(host.dropped, { 'pbx-networkfilters': { packet: 12 } });
    // A gauge, not a total: the newest report's active decisions (the console offers a resync when they differ from lastNew).
    assert.equal(host.activeDecisions, 3);
    const poller = bouncer.hosts.find((h: { ip: string }) => h.ip === '127.0.0.1');
    assert.equal(poller.userAgent, 'crowdsec-firewall-bouncer/v0.0.31');
    assert.equal(poller.polls, 1);
    assert.equal(poller.activeDecisions, null, 'a host that never reported holds an unknown count');
  });

  test('malformed reports get 400/413/422 with a clear message; no key gets 401', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const send = (body: unknown, headers: Record<string, string> = {}) =>
      t.call(METRICS, { method: 'POST', headers: { 'X-Api-Key': key, ...headers }, body });
    const cases: Array<[unknown, number, Record<string, string>?]> = [
      ['{"remediation_components": [', 400, { 'content-type': 'application/json' }],
      [{}, 422],
      [{ remediation_components: [] }, 422],
      [{ remediation_components: [{ version: 1, utc_startup_timestamp: 'x' }] }, 422],
      [
        {
          remediation_components: [
            {
              version: 'v1',
              utc_startup_timestamp: 1,
              metrics: [{ meta: {}, items: [{ name: 'dropped', value: 'NaN', unit: 'x' }] }],
            },
          ],
        },
        422,
      ],
      [{ remediation_components: [{ version: 'v1', utc_startup_timestamp: 1, name: 'x'.repeat(70_000) }] }, 413],
    ];
    for (const [body, status, headers] of cases) {
      const answer = await send(body, headers);
      assert.equal(answer.status, status, `${JSON.stringify(body).slice(0, 80)}: ${answer.text.slice(0, 200)}`);
      assert.equal(answer.json.result, false);
      assert.ok(answer.json.messages.error[0].length > 10);
    }
    assert.equal((await t.call(METRICS, { method: 'POST', body: report(1) })).status, 401);
    assert.equal((await t.call(METRICS, { method: 'GET', headers: { 'X-Api-Key': key } })).status, 405);
  });
});

describe('a bouncer locked out by a wrong key', () => {
  const t = useTestServer();

  test('shows on its key with the ban, and is served within one poll once its key is right', async () => {
    assert.equal((await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { maxretry: 3 } })).status, 200);
    const { id, key } = createTestApiKey(t.server.services.db, { description: 'fw1' });
    assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': key } })).status, 200);
    // The operator pastes a config with a mistyped key: three polls later the host is banned.
    for (let i = 0; i < 3; i++)
      assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': 'f'.repeat(63) + '0' } })).status, 401);
    assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': 'f'.repeat(63) + '0' } })).status, 403);
    t.server.services.firewall!.hosts.flush();
    const status = (await t.call('/pbxcore/api/v3/firewall:getBouncerStatus')).json.data;
    const bouncer = status.bouncers.find((b: { keyId: number }) => b.keyId === id);
    assert.equal(bouncer.refused.length, 1, JSON.stringify(bouncer));
    assert.equal(bouncer.refused[0].ip, '127.0.0.2');
    assert.equal(bouncer.refused[0].banned, true);
    assert.deepEqual(bouncer.refused[0].bannedCategories, ['http']);
    // The key fixed: the very next poll is served, and nothing is left to show.
    assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': key } })).status, 200);
    const after = (await t.call('/pbxcore/api/v3/firewall:getBouncerStatus')).json.data;
    assert.deepEqual(after.rejections, []);
    assert.deepEqual(after.bouncers.find((b: { keyId: number }) => b.keyId === id).refused, []);
  });
});
