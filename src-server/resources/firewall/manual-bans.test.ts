import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { banLog } from '../../firewall/bans/index.ts';
import { MAX_DECISION_SECONDS } from '../../firewall/model/index.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { useTestServer } from '../../test-support/server.ts';
import { poll, values } from '../../test-support/bouncer.ts';
import { FIREWALL } from '../../test-support/v3-paths.ts';

describe('manual bans (firewall:banIp) and the ban history', () => {
  // Workers stamp bans with the real time: the test clock starts there, and the one test that moves it runs last.
  const clock = new ManualClock(Date.now());
  const ban = (body: Record<string, unknown>) => t.call(`${FIREWALL}:banIp`, { method: 'POST', body });
  const t = useTestServer({ clock });
  before(async () => {
    assert.equal(
      (await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { whitelist: '192.0.2.0/24' } })).status,
      200,
    );
  });

  test('bad input gets 422 with the reason, and nothing is stored', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /ip: .*required/],
      [{ ip: '300.1.1.1' }, /not an IPv4 or IPv6 address or CIDR/],
      [{ ip: '127.0.0.0/8' }, /loopback.*never published/],
      [{ ip: '0.0.0.0/0' }, /every address/],
      [{ ip: '192.0.2.7' }, /whitelisted 192\.0\.2\.0\/24/],
      [{ ip: '198.51.100.7', duration: '5s' }, /from 1 minute/],
      [{ ip: '198.51.100.7', duration: 'soon' }, /duration: give seconds/],
      [{ ip: '198.51.100.7', duration: 11 * 365 * 86_400 }, /10 years/],
      [{ ip: '198.51.100.7', services: ['FTP'] }, /services: a non-empty list of SIP, WEB, AMI, IAX/],
      [{ ip: '198.51.100.7', reason: 'x'.repeat(201) }, /reason: text of at most 200/],
      // Unspecified and mapped catch-alls: no packet comes from them.
      [{ ip: '0.0.0.0/8' }, /unspecified address/],
      [{ ip: '0.0.0.0' }, /unspecified address/],
      [{ ip: '::' }, /unspecified address/],
      [{ ip: '::ffff:0:0/96' }, /every address/],
      [{ ip: '::ffff:0:0/95' }, /IPv4-mapped space/],
    ];
    for (const [body, message] of cases) {
      const answer = await ban(body);
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.match(answer.json.messages.error.join(' '), message);
    }
    assert.deepEqual((await t.call(`${FIREWALL}:getBannedIps`)).json.data, []);
  });

  test('a permanent ban is published at the longest duration every backend takes, and lifted early by its CIDR', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    assert.equal((await ban({ ip: '2001:db8:bad::/48', reason: 'abuse' })).status, 201);
    const decision = (await poll(t, key)).new.find((d) => d.value === '2001:db8:bad::/48')!;
    assert.equal(decision.duration, `${MAX_DECISION_SECONDS}s`);
    const listed = (await t.call(`${FIREWALL}:getBannedIps`)).json.data.find(
      (b: { ip: string }) => b.ip === '2001:db8:bad::/48',
    );
    assert.equal(listed.permanent, true);
    assert.equal(listed.secondsLeft, null);
    const lifted = await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: '2001:DB8:BAD::/48' } });
    assert.equal(lifted.status, 200, lifted.text);
    assert.equal(lifted.json.data.lifted, 1);
    assert.deepEqual(values((await poll(t, key)).deleted), ['2001:db8:bad::/48 pbx/manual']);
    const entry = (await t.call(`${FIREWALL}:getBanLog?state=lifted&category=manual`)).json.data.find(
      (b: { ip: string }) => b.ip === '2001:db8:bad::/48',
    );
    assert.equal(entry.liftedBy, 'localhost');
  });

  test('this server refuses a manually banned address on WEB, unless the ban leaves WEB out', async () => {
    assert.equal((await ban({ ip: '127.0.0.2', duration: 600, services: ['SIP', 'AMI'] })).status, 201);
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 200, 'WEB not among the services');
    assert.equal((await ban({ ip: '127.0.0.0/30', duration: '10m' })).status, 422, 'covers the host loopback');
    assert.equal((await ban({ ip: '127.0.0.2', duration: '10m', reason: 'all services' })).status, 201);
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 403);
    const history = (await t.call(`${FIREWALL}:getBanLog?search=127.0.0.2`)).json.data;
    assert.deepEqual(
      history.map((b: { state: string; liftedBy: string | null }) => [b.state, b.liftedBy]),
      [
        ['active', null],
        ['lifted', 'localhost (replaced)'],
      ],
    );
    const bulk = await t.call(`${FIREWALL}:unbanIps`, {
      method: 'POST',
      body: { ips: ['127.0.0.2', '198.51.100.250'] },
    });
    assert.equal(bulk.status, 200, bulk.text);
    assert.equal(bulk.json.data.lifted, 1);
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 200);
    assert.equal(
      (await t.call(`${FIREWALL}:unbanIps`, { method: 'POST', body: { ips: ['127.0.0.2', 'nonsense'] } })).status,
      422,
    );
  });

  test('a range is stored as its network, said so in the answer, and unbanned however it is written', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const created = await ban({ ip: '203.0.114.77/24', duration: '1h' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.ip, '203.0.114.0/24');
    assert.equal(created.json.data.written, '203.0.114.77/24');
    assert.ok((await poll(t, key)).new.some((d) => d.value === '203.0.114.0/24' && d.scope === 'Range'));
    // Any spelling of the range finds it: the network, another host in it, the IPv4-mapped form.
    for (const spelling of ['203.0.114.200/24', '::ffff:203.0.114.9/120']) {
      assert.equal((await ban({ ip: spelling, duration: '1h' })).json.data.ip, '203.0.114.0/24');
      const lifted = await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: spelling } });
      assert.equal(lifted.json.data.lifted, 1, spelling);
    }
    assert.deepEqual(values((await poll(t, key)).deleted), ['203.0.114.0/24 pbx/manual']);
  });

  test('/v1/decisions?ip= and ?range= find manual range bans and filter entries that hold the address', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    const decisions = async (query: string) =>
      (await t.call(`/pbxcore/api/v3/firewall-bouncer/v1/decisions?${query}`, { headers: { 'X-Api-Key': key } })).json;
    assert.equal((await ban({ ip: '198.51.101.0/24', duration: '1h' })).status, 201);
    const filter = await t.call(FIREWALL, {
      method: 'POST',
      body: { permit: '192.0.2.0/24', deny: '198.51.102.0/24', description: 'carrier' },
    });
    assert.equal(filter.status, 201, filter.text);
    const valuesOf = (list: Array<{ value: string }> | null) => (list ?? []).map((d) => d.value).sort();
    const expectations: Array<[query: string, values: string[], why: string]> = [
      ['ip=198.51.101.5', ['198.51.101.0/24'], 'live mode: a manual range ban holds the address'],
      ['ip=198.51.102.5', ['198.51.102.0/24'], 'a filter entry holds the address'],
      ['ip=::ffff:198.51.101.5', ['198.51.101.0/24'], 'the IPv4-mapped form asks about the same address'],
      ['range=198.51.101.128/25', ['198.51.101.0/24'], 'contains (default): decisions holding the range'],
      [
        'range=198.51.0.0/16&contains=false',
        ['198.51.101.0/24', '198.51.102.0/24'],
        'contains=false: decisions within the range',
      ],
    ];
    for (const [query, values, why] of expectations) assert.deepEqual(valuesOf(await decisions(query)), values, why);
    assert.equal(await decisions('ip=198.51.103.5'), null, 'an address nothing holds: null');
    assert.equal(await decisions('ip=198.51.101.5&scope=ip'), null, 'scope Ip excludes the Range decision');
    await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: '198.51.101.0/24' } });
    await t.call(`${FIREWALL}/${filter.json.data.id}`, { method: 'DELETE' });
    assert.equal(await decisions('ip=198.51.101.5'), null);
  });

  test('keys with expand_ranges get a manual range ban as its addresses', async () => {
    const created = await t.call('/pbxcore/api/v3/api-keys', {
      method: 'POST',
      body: { description: 'nft', allowed_paths: { '/api/v3/firewall-bouncer': 'read' }, expand_ranges: true },
    });
    const key: string = created.json.data.key;
    assert.equal((await ban({ ip: '198.51.100.4/30', duration: '1h' })).status, 201);
    const answer = await poll(t, key);
    const addresses = answer.new
      .filter((d) => d.scope === 'Ip' && d.value.startsWith('198.51.100.'))
      .map((d) => [d.value, d.duration]);
    assert.deepEqual(addresses.map(([value]) => value).sort(), [
      '198.51.100.4',
      '198.51.100.5',
      '198.51.100.6',
      '198.51.100.7',
    ]);
    assert.ok(
      addresses.every(([, duration]) => /^3[56]\d\ds$/.test(duration!)),
      JSON.stringify(addresses),
    );
    await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: '198.51.100.4/30' } });
    assert.deepEqual(values((await poll(t, key)).deleted), [
      '198.51.100.4 pbx/manual',
      '198.51.100.5 pbx/manual',
      '198.51.100.6 pbx/manual',
      '198.51.100.7 pbx/manual',
    ]);
  });
  test('a ban of a range for 2 h reaches the stream with its real remaining time, then expires and is deleted', async () => {
    const { key } = createTestApiKey(t.server.services.db);
    // The suite's earlier tests took real time the test clock did not: it catches up to the workers' clock first.
    clock.advance(Math.max(0, Date.now() - clock.now()));
    const created = await ban({ ip: '203.0.113.0/24', duration: '2h', reason: 'scanner on SIP' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.ip, '203.0.113.0/24');
    const first = await poll(t, key);
    const decision = first.new.find((d) => d.value === '203.0.113.0/24')!;
    assert.equal(decision.scenario, 'pbx/manual');
    assert.equal(decision.origin, 'pbx-networkfilters', 'an operator entry, like the filters');
    assert.equal(decision.scope, 'Range');
    assert.match(
      decision.duration,
      /^(71[4-9]\d|720\d)s$/,
      "2 h, give or take the seconds between the test clock and the worker's",
    );
    const listed = (await t.call(`${FIREWALL}:getBannedIps`)).json.data;
    assert.deepEqual(
      listed.map((b: { ip: string; category: string; reason: string; bannedBy: string; secondsLeft: number }) => [
        b.ip,
        b.category,
        b.reason,
        b.bannedBy,
        b.secondsLeft,
      ]),
      [['203.0.113.0/24', 'manual', 'scanner on SIP', 'localhost', listed[0].secondsLeft]],
    );
    assert.ok(listed[0].secondsLeft > 7140 && listed[0].secondsLeft <= 7200); // a minute for a loaded machine
    clock.advance(3600_000);
    assert.match((await poll(t, key)).new.find((d) => d.value === '203.0.113.0/24')!.duration, /^3[56]\d\ds$/);
    clock.advance(3600_000 + 30_000); // past the end, whatever the few seconds between the clocks
    const after = await poll(t, key);
    assert.deepEqual(values(after.deleted), ['203.0.113.0/24 pbx/manual']);
    assert.deepEqual(after.new, []);
    const history = (await t.call(`${FIREWALL}:getBanLog?search=203.0.113`)).json.data;
    assert.equal(history.length, 1);
    assert.equal(history[0].liftedBy, null);
    // Workers judge against the real time, which the test clock left behind: ask the query at the test's time.
    const [entry] = banLog(t.server.services.db, clock.now(), { search: '203.0.113', limit: 10, offset: 0 }).rows;
    assert.equal(entry!.state, 'expired');
    assert.ok(Date.parse(entry!.endsAt!) <= clock.now());
  });
});
