import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { banThroughFailures, createFilter, WHITELIST } from '../../test-support/bouncer.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { type TestServer, useTestServer } from '../../test-support/server.ts';
import { FIREWALL } from '../../test-support/v3-paths.ts';

/** Sets the fail2ban whitelist through the API. */
const setWhitelist = (t: TestServer, whitelist: string) =>
  t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { whitelist } });

describe('firewall: network filters CRUD', () => {
  const t = useTestServer();

  test('write shape in, read shape out: network/subnet become permit, currentRules become rules', async () => {
    const created = await t.post(FIREWALL, {
      network: '192.0.2.0',
      subnet: '24',
      description: 'office',
      currentRules: { SIP: true, WEB: false, AMI: '0', IAX: 'allow' },
      local_network: '1',
    });
    assert.equal(created.status, 201);
    const { id, ...rest } = created.json.data;
    assert.equal(typeof id, 'number');
    assert.deepEqual(rest, {
      permit: '192.0.2.0/24',
      deny: '0.0.0.0/0',
      description: 'office',
      newer_block_ip: false,
      local_network: true,
      rules: { SIP: 'allow', WEB: 'block', AMI: 'block', IAX: 'allow' },
    });
    const read = await t.call(`${FIREWALL}/${id}`);
    assert.deepEqual(read.json.data, created.json.data);
    const list = await t.call(FIREWALL);
    assert.ok(list.json.data.some((f: { id: number }) => f.id === id));
    assert.equal(list.json.pagination.total, list.json.data.length);

    const patched = await t.call(`${FIREWALL}/${id}`, {
      method: 'PATCH',
      body: { subnet: 25, currentRules: { WEB: true }, unknownField: 'x' },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.json.data.permit, '192.0.2.0/25');
    assert.deepEqual(patched.json.data.rules, { SIP: 'allow', WEB: 'allow', AMI: 'block', IAX: 'allow' });
    assert.ok(
      !('unknownField' in patched.json.data) &&
        !('network' in patched.json.data) &&
        !('currentRules' in patched.json.data),
    );

    const moved = await t.call(`${FIREWALL}/${id}`, { method: 'PATCH', body: { network: '192.0.2.128' } });
    assert.equal(moved.json.data.permit, '192.0.2.128/25', 'PATCH of the address keeps the stored prefix');
    const v6 = await t.call(`${FIREWALL}/${id}`, { method: 'PATCH', body: { network: '2001:db8::' } });
    assert.equal(v6.json.data.permit, '2001:db8::/128', 'another family gets its full prefix');

    const replaced = await t.call(`${FIREWALL}/${id}`, { method: 'PUT', body: { permit: '198.51.100.0/24' } });
    assert.equal(replaced.status, 200);
    assert.equal(replaced.json.data.description, '', 'PUT resets absent fields to defaults');
    assert.deepEqual(replaced.json.data.rules, { SIP: 'allow', WEB: 'allow', AMI: 'allow', IAX: 'allow' });

    assert.equal((await t.call(`${FIREWALL}/${id}`, { method: 'DELETE' })).status, 200);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const missing = await t.call(`${FIREWALL}/${id}`, {
        method,
        body: method === 'GET' || method === 'DELETE' ? undefined : { permit: '10.0.0.0/8' },
      });
      assert.equal(missing.status, 404, method);
      assert.equal(missing.json.httpCode, 404);
    }
    assert.equal((await t.call(`${FIREWALL}/abc`)).status, 404);
  });

  test('IPv6 and ranges are accepted and normalised', async () => {
    const v6 = await createFilter(t, {
      network: '2001:DB8:0:0::',
      subnet: 48,
      deny: '2001:db8:ffff::/48 , 2001:db8:ffff:0::5',
    });
    assert.equal(v6.permit, '2001:db8::/48');
    assert.equal(v6.deny, '2001:db8:ffff::/48,2001:db8:ffff::5');
    const single = await createFilter(t, { permit: '2001:db8::7' });
    assert.equal(single.permit, '2001:db8::7/128');
    const mapped = await createFilter(t, { permit: '::ffff:192.0.2.9' });
    assert.equal(mapped.permit, '192.0.2.9/32');
  });

  test('zone ids, garbage and impossible prefixes get 422', async () => {
    const bad: Record<string, unknown>[] = [
      { permit: 'fe80::1%eth0' },
      { network: 'fe80::1%eth0', subnet: 64 },
      { permit: 'not-an-address' },
      { permit: '300.1.1.1' },
      { permit: '1.2.3' },
      { permit: '0x7f.1/8' },
      { permit: '10.0.0.0/8', deny: '10.1' },
      { permit: '10.0.0.0/33' },
      { network: '10.0.0.0', subnet: 33 },
      { network: '10.0.0.0', subnet: -1 },
      { permit: '10.0.0.0/8', deny: 'fe80::1%eth0' },
      { permit: '10.0.0.0/8', deny: '1.2.3.4, bogus' },
      { permit: '10.0.0.0/8', currentRules: { SIP: 'maybe' } },
      { description: 'no permit at all' },
    ];
    for (const body of bad) {
      const response = await t.post(FIREWALL, body);
      assert.equal(response.status, 422, JSON.stringify(body));
      assert.equal(response.json.result, false);
      assert.ok(response.json.messages.error.length > 0);
    }
    assert.equal(
      (await t.call(FIREWALL, { method: 'POST', body: 'garbage', headers: { 'content-type': 'application/json' } }))
        .status,
      400,
    );
  });

  test(
    "the reference PBX's other service categories (SSH, AJAM, ICMP, NTP, TFTP, CTICLIENT) are " +
      'stored and read back; unknown ones get 422',
    async () => {
      const created = await t.post(FIREWALL, {
        permit: '198.18.0.0/15',
        description: 'reference script',
        currentRules: {
          SIP: true,
          WEB: true,
          AMI: false,
          IAX: true,
          SSH: false,
          AJAM: false,
          ICMP: true,
          NTP: 'allow',
          TFTP: '0',
          CTICLIENT: true,
        },
      });
      assert.equal(created.status, 201, created.text);
      const expected = {
        SIP: 'allow',
        WEB: 'allow',
        AMI: 'block',
        IAX: 'allow',
        SSH: 'block',
        AJAM: 'block',
        ICMP: 'allow',
        NTP: 'allow',
        TFTP: 'block',
        CTICLIENT: 'allow',
      };
      assert.deepEqual(created.json.data.rules, expected);
      const id = created.json.data.id as number;
      assert.deepEqual((await t.call(`${FIREWALL}/${id}`)).json.data.rules, expected);
      // A PATCH of one category keeps the others, stored-only ones included.
      const patched = await t.call(`${FIREWALL}/${id}`, { method: 'PATCH', body: { currentRules: { ssh: true } } });
      assert.deepEqual(patched.json.data.rules, { ...expected, SSH: 'allow' });
      // Only SIP/WEB/AMI/IAX drive this server: network-filters:getForSelect knows no SSH category.
      assert.equal((await t.call('/pbxcore/api/v3/network-filters:getForSelect?category=SSH')).status, 422);
      const unknown = await t.post(FIREWALL, { permit: '198.18.0.0/15', currentRules: { TELNET: false } });
      assert.equal(unknown.status, 422, unknown.text);
      assert.match(unknown.json.messages.error.join(' '), /currentRules.*SSH, AJAM/);
      // Filters without them read back only the four categories.
      const plain = await createFilter(t, { permit: '198.51.100.0/24' });
      assert.deepEqual((await t.call(`${FIREWALL}/${plain.id}`)).json.data.rules, {
        SIP: 'allow',
        WEB: 'allow',
        AMI: 'allow',
        IAX: 'allow',
      });
      await t.call(`${FIREWALL}/${id}`, { method: 'DELETE' });
      await t.call(`${FIREWALL}/${plain.id}`, { method: 'DELETE' });
    },
  );

  test('a deny entry overlapping the whitelist or a trusted network gets 422 (both directions)', async () => {
    const trusted = await createFilter(t, { permit: '172.16.0.0/16', newer_block_ip: true });
    assert.equal((await setWhitelist(t, '203.0.113.5, 2001:db8:aaaa::/48')).status, 200);
    for (const deny of ['172.16.5.0/24', '172.0.0.0/8', '172.16.9.9', '203.0.113.0/24', '2001:db8:aaaa:1::1']) {
      const response = await t.post(FIREWALL, { permit: '10.0.0.0/8', deny });
      assert.equal(response.status, 422, deny);
      assert.match(response.json.messages.error.join(' '), /overlaps/);
    }
    // Its own trusted network too.
    assert.equal(
      (await t.post(FIREWALL, { permit: '10.1.0.0/16', newer_block_ip: true, deny: '10.1.2.0/24' })).status,
      422,
    );
    // The catch-all default is not a ban and is fine.
    assert.equal(
      (await t.call(FIREWALL, { method: 'POST', body: { permit: '10.0.0.0/8', deny: '0.0.0.0/0,::/0' } })).status,
      201,
    );
    // Making a network trusted when another filter denies part of it, or whitelisting a denied range: 422.
    await createFilter(t, { permit: '10.0.0.0/8', deny: '198.18.0.0/24' });
    assert.equal(
      (await t.call(FIREWALL, { method: 'POST', body: { permit: '198.18.0.0/16', newer_block_ip: true } })).status,
      422,
    );
    assert.equal((await setWhitelist(t, '198.18.0.7')).status, 422);
    assert.equal(
      (await t.call(`${FIREWALL}/${trusted.id}`, { method: 'PATCH', body: { newer_block_ip: false } })).status,
      200,
    );
    assert.equal(
      (await t.call(FIREWALL, { method: 'POST', body: { permit: '10.0.0.0/8', deny: '172.16.5.0/24' } })).status,
      201,
      'no longer trusted',
    );
  });

  test('getDefault gives a new filter with every default', async () => {
    const response = await t.call(`${FIREWALL}:getDefault`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.json.data, {
      id: '',
      permit: '',
      deny: '0.0.0.0/0',
      description: '',
      newer_block_ip: false,
      local_network: false,
      rules: { SIP: 'allow', WEB: 'allow', AMI: 'allow', IAX: 'allow' },
    });
  });
});

describe('firewall: bans, whitelist and read-only views', () => {
  const t = useTestServer();

  test('getBannedIps lists active bans; unbanIp lifts every category of one ip', async () => {
    banThroughFailures(t, 'sip', '10.50.0.1');
    banThroughFailures(t, 'ami', '10.50.0.1');
    banThroughFailures(t, 'http', '2001:db8::0:1');
    const list = await t.call(`${FIREWALL}:getBannedIps`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.json.data.map((b: { ip: string; category: string }) => `${b.ip} ${b.category}`).sort(), [
      '10.50.0.1 ami',
      '10.50.0.1 sip',
      '2001:db8::1 http',
    ]);
    for (const ban of list.json.data) {
      assert.ok(ban.secondsLeft > 590 && ban.secondsLeft <= 600);
      assert.equal(Date.parse(ban.expiresAt) - Date.parse(ban.bannedAt), 600_000);
      assert.equal(ban.reason, 'test failure');
    }
    const lifted = await t.post(`${FIREWALL}:unbanIp`, { ip: '10.50.0.1' });
    assert.deepEqual(lifted.json.data, { ip: '10.50.0.1', lifted: 2 });
    assert.equal(
      t.server.services.firewall!.bans.isBanned('10.50.0.1'),
      false,
      'the web thread dropped it from its cache',
    );
    const rest = await t.call(`${FIREWALL}:getBannedIps`);
    assert.deepEqual(
      rest.json.data.map((b: { ip: string }) => b.ip),
      ['2001:db8::1'],
    );
    for (const ip of ['', 'nope', 'fe80::1%eth0'])
      assert.equal((await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip } })).status, 422);
    assert.equal((await t.call(`${FIREWALL}:unbanIp`)).status, 405);
  });

  test('loopback, whitelisted and trusted addresses are never banned', async () => {
    await createFilter(t, { permit: '192.0.2.0/24', newer_block_ip: true });
    assert.equal((await setWhitelist(t, '198.51.100.0/24 2001:db8:1::/48')).status, 200);
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '192.0.2.77', '198.51.100.3', '2001:db8:1::9'])
      banThroughFailures(t, 'sip', ip);
    const bans = t.server.services.firewall!.bans;
    for (const ip of ['127.0.0.1', '::1', '192.0.2.77', '198.51.100.3', '2001:db8:1::9'])
      assert.equal(bans.isBanned(ip), false, ip);
    banThroughFailures(t, 'sip', '198.51.101.3');
    assert.equal(bans.isBanned('198.51.101.3'), true, 'just outside the whitelist');
  });

  test('fewer than maxretry failures within findtime do not ban', async () => {
    const { maxretry } = t.server.services.firewall!.state.settings;
    for (let i = 0; i < maxretry - 1; i++)
      t.server.services.bus.emit({ type: 'security-failure', category: 'iax', ip: '10.60.0.1', reason: 'x' });
    assert.equal(t.server.services.firewall!.bans.isBanned('10.60.0.1'), false);
    t.server.services.bus.emit({ type: 'security-failure', category: 'iax', ip: '10.60.0.1', reason: 'x' });
    assert.equal(t.server.services.firewall!.bans.isBanned('10.60.0.1'), true);
  });

  test('whitelist: trusted permits then the fail2ban whitelist, deduplicated, stable; same on both endpoints', async () => {
    await createFilter(t, { permit: '10.70.0.0/16', newer_block_ip: true });
    await createFilter(t, { permit: '10.71.0.0/16', newer_block_ip: false });
    await createFilter(t, { permit: '10.70.0.0/16', newer_block_ip: true, description: 'duplicate' });
    await createFilter(t, { permit: '2001:db8:70::/48', newer_block_ip: true });
    assert.equal(
      (await setWhitelist(t, '203.0.113.9, 10.70.0.0/16,203.0.113.9 192.0.2.0/24 2001:db8:70::/48')).status,
      200,
    );
    const expected = ['192.0.2.0/24', '10.70.0.0/16', '2001:db8:70::/48', '203.0.113.9'];
    const { key } = createTestApiKey(t.server.services.db);
    const exported = await t.call(WHITELIST, { headers: { 'X-Api-Key': key } });
    assert.equal(exported.status, 200);
    assert.deepEqual(exported.json, expected);
    const viaApi = await t.call(`${FIREWALL}:getWhitelist`);
    assert.deepEqual(viaApi.json.data, expected);
    assert.deepEqual(
      (await t.call(WHITELIST, { headers: { 'X-Api-Key': key } })).json,
      expected,
      'stable across calls',
    );
  });

  test('getBanHistory: one point per minute with the bans started in it, per category', async () => {
    const response = await t.call(`${FIREWALL}:getBanHistory?minutes=5`);
    assert.equal(response.status, 200);
    const points = response.json.data.points;
    assert.equal(points.length, 5);
    for (const point of points)
      assert.deepEqual(Object.keys(point).sort(), ['ami', 'http', 'iax', 'manual', 'sip', 't']);
    // Every ban of this test started within the last 5 minutes, lifted ones included: the chart
    // counts starts, so a ban lifted at once still shows.
    const log = (await t.call(`${FIREWALL}:getBanLog?limit=1000`)).json.data as Array<{
      category: 'sip' | 'http' | 'ami' | 'iax' | 'manual';
      state: string;
    }>;
    const expected = { sip: 0, http: 0, ami: 0, iax: 0, manual: 0 };
    for (const ban of log) expected[ban.category]++;
    assert.ok(log.length >= 3);
    assert.ok(
      log.some((ban) => ban.state === 'lifted'),
      'a lifted ban is in the history',
    );
    const counted = { sip: 0, http: 0, ami: 0, iax: 0, manual: 0 };
    for (const point of points)
      for (const category of Object.keys(counted) as Array<keyof typeof counted>) counted[category] += point[category];
    assert.deepEqual(counted, expected);
    assert.equal(Date.parse(points[1].t) - Date.parse(points[0].t), 60_000);
    assert.equal((await t.call(`${FIREWALL}:getBanHistory?minutes=0`)).status, 422);
    assert.equal((await t.call(`${FIREWALL}:getBanHistory`)).json.data.points.length, 60);
  });

  test('network-filters: read-only list and record, getForSelect by category', async () => {
    const blocked = await createFilter(t, {
      permit: '10.80.0.0/16',
      description: 'no sip',
      currentRules: { SIP: false },
    });
    const list = await t.call('/pbxcore/api/v3/network-filters');
    assert.equal(list.status, 200);
    assert.ok(list.json.data.some((f: { id: number }) => f.id === blocked.id));
    assert.deepEqual(
      (await t.call(`/pbxcore/api/v3/network-filters/${blocked.id}`)).json.data,
      (await t.call(`${FIREWALL}/${blocked.id}`)).json.data,
    );
    assert.equal(
      (await t.call('/pbxcore/api/v3/network-filters', { method: 'POST', body: { permit: '10.0.0.0/8' } })).status,
      405,
    );
    assert.equal((await t.call(`/pbxcore/api/v3/network-filters/${blocked.id}`, { method: 'DELETE' })).status, 405);

    const sip = await t.call('/pbxcore/api/v3/network-filters:getForSelect?category=SIP');
    assert.ok(!sip.json.data.some((o: { value: string }) => o.value === String(blocked.id)));
    const web = await t.call('/pbxcore/api/v3/network-filters:getForSelect?category=WEB');
    const option = web.json.data.find((o: { value: string }) => o.value === String(blocked.id));
    assert.deepEqual(option, {
      value: String(blocked.id),
      text: 'no sip (10.80.0.0/16)',
      permit: '10.80.0.0/16',
      description: 'no sip',
    });
    assert.equal((await t.call('/pbxcore/api/v3/network-filters:getForSelect?category=FTP')).status, 422);
  });
});
