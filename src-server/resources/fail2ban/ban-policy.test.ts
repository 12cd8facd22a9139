import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { poll, WHITELIST } from '../../test-support/bouncer.ts';
import { useTestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const FAIL2BAN = `${V3}/fail2ban`;
const FIREWALL = `${V3}/firewall`;
const DEFAULT_RULES = {
  preset: 'weak',
  categories: {},
  whitelist: '',
  whitelistEntries: [],
  bantimeIncrement: false,
  bantimeMultipliers: null,
  bantimeMaxtime: 31_536_000,
  ipv6ByPrefix: false,
  slowWindow: false,
};

describe('ban policy over HTTP (issue 20, issue 19 item 6)', () => {
  let key: string;
  const fail = (category: 'sip' | 'http' | 'ami' | 'iax', ip: string, times = 1) => {
    for (let i = 0; i < times; i++)
      t.server.services.bus.emit({ type: 'security-failure', category, ip, reason: 'test failure' });
  };
  const banned = async () =>
    (await t.call(`${FIREWALL}:getBannedIps`)).json.data as Array<{
      ip: string;
      category: string;
      secondsLeft: number;
      banNumber: number;
    }>;
  const patch = (body: Record<string, unknown>) => t.call(FAIL2BAN, { method: 'PATCH', body });
  const auditOf = async (resource: string) => {
    t.server.services.audit.flush();
    const entries = (await t.call(`${V3}/audit-log?resource=${resource}`)).json.data as Array<{
      operation: string;
      status: number;
      diff: Array<{ field: string; after?: unknown }>;
    }>;
    return entries.filter((e) => e.status < 300);
  };
  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

  const t = useTestServer();
  before(async () => {
    key = createTestApiKey(t.server.services.db).key;
  });
  beforeEach(async () => {
    assert.equal((await patch(DEFAULT_RULES)).status, 200);
    await t.call(`${FIREWALL}:unbanIps`, {
      method: 'POST',
      body: { ips: (await banned()).map((b) => b.ip).concat('192.0.2.255') },
    });
  });

  test('bad input: 422 naming the field (multipliers, maxtime, prefix, whitelist end, category bounds, preset)', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ bantimeMultipliers: '' }, /^bantimeMultipliers: the list is empty/],
      [{ bantimeMultipliers: [] }, /^bantimeMultipliers: the list is empty/],
      [{ bantimeMultipliers: '1 two 4' }, /^bantimeMultipliers\.1: each multiplier must be a number/],
      [
        { bantimeMultipliers: Array.from({ length: 21 }, (_, i) => i + 1) },
        /^bantimeMultipliers: at most 20 multipliers/,
      ],
      [
        { bantimeIncrement: true, bantime: 7200, bantimeMaxtime: 3600 },
        /^bantimeMaxtime: 3600 s is below the longest bantime \(7200 s\)/,
      ],
      [
        { bantimeIncrement: true, categories: { sip: { bantime: 86_400 } }, bantimeMaxtime: 3600 },
        /^bantimeMaxtime: .*86400/,
      ],
      [{ ipv6Prefix: 31 }, /^ipv6Prefix: must be at least 32/],
      [{ ipv6Prefix: 129 }, /^ipv6Prefix: must be at most 128/],
      [
        { whitelistEntries: [{ value: '198.51.100.1', comment: 'old', until: '2020-01-01T00:00:00Z' }] },
        /^whitelistEntries\[0\]\.until: 2020-01-01T00:00:00Z is in the past/,
      ],
      [{ whitelistEntries: [{ value: 'nope' }] }, /^whitelistEntries\[0\]\.value: "nope" is not a valid/],
      [
        { whitelistEntries: [{ value: '198.51.100.1', until: 'tomorrow' }] },
        /^whitelistEntries\.0\.until: an ISO date/,
      ],
      [{ categories: { sip: { maxretry: 101 } } }, /^categories\.sip\.maxretry: must be at most 100/],
      [{ categories: { ssh: { maxretry: 3 } } }, /^categories: .*ssh/i],
      [{ bantime: 31_536_001 }, /^bantime: must be at most 31536000 s/],
      [{ preset: 'extreme' }, /^preset: one of weak, normal, enhanced, paranoid, custom/],
      [{ slowMaxretry: 1 }, /^slowMaxretry: must be at least 2/],
      [{ slowFindtime: 2_592_001 }, /^slowFindtime: must be at most 2592000 s/],
      [{ slowBantime: 'long' }, /^slowBantime: /],
      [{ categories: { sip: { slowBantime: 59 } } }, /^categories\.sip\.slowBantime: must be at least 60/],
      [
        { slowWindow: true, findtime: 86_400, slowFindtime: 86_400 },
        /^slowFindtime: the slow window \(86400 s\) must be longer than the sip findtime \(86400 s\)/,
      ],
      [
        { slowWindow: true, categories: { ami: { findtime: 7200, slowFindtime: 3600 } } },
        /^categories\.ami\.slowFindtime: the slow window \(3600 s\) must be longer than the ami findtime/,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await patch(body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(answer.json.messages.error.join(' | '), message, JSON.stringify(body));
    }
    const unchanged = (await t.call(FAIL2BAN)).json.data;
    assert.equal(unchanged.bantimeMultipliers, null);
    assert.equal(unchanged.ipv6Prefix, 64);
  });

  test('presets: choosing one sets the three numbers; any differing value reads back as custom; null clears a category value', async () => {
    const paranoid = await patch({ preset: 'paranoid' });
    assert.equal(paranoid.status, 200, paranoid.text);
    assert.deepEqual(
      [paranoid.json.data.maxretry, paranoid.json.data.findtime, paranoid.json.data.bantime, paranoid.json.data.preset],
      [3, 86_400, 2_592_000, 'paranoid'],
    );
    const { slowWindow, slowMaxretry, slowFindtime, slowBantime } = paranoid.json.data;
    assert.deepEqual(
      { slowWindow, slowMaxretry, slowFindtime, slowBantime },
      { slowWindow: true, slowMaxretry: 6, slowFindtime: 604_800, slowBantime: 7_776_000 },
      'a preset turns the slow window on with its numbers',
    );
    assert.equal((await patch({ slowMaxretry: 7 })).json.data.preset, 'custom', 'a differing slow value is custom');
    assert.equal(
      (await patch({ slowWindow: false })).json.data.preset,
      'paranoid',
      'slow window off: the first rule decides',
    );
    const custom = await patch({ categories: { sip: { maxretry: 5 }, http: { maxretry: 10, bantime: 600 } } });
    assert.equal(custom.json.data.preset, 'custom');
    assert.deepEqual(custom.json.data.categories, { sip: { maxretry: 5 }, http: { maxretry: 10, bantime: 600 } });
    const cleared = await patch({ categories: { sip: { maxretry: null }, http: { maxretry: 10, bantime: 600 } } });
    assert.deepEqual(cleared.json.data.categories, { http: { maxretry: 10, bantime: 600 } });
    assert.equal(
      (await patch({ preset: 'normal' })).json.data.preset,
      'normal',
      'a preset clears the category overrides',
    );
    assert.deepEqual((await t.call(FAIL2BAN)).json.data.categories, {});
    const stored = t.server.services.db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as {
      value: string;
    };
    assert.equal('preset' in JSON.parse(stored.value), false, 'the preset is derived, never stored');
  });

  test('per-category rules: SIP maxretry 3 bans after three failures; nine web failures with HTTP maxretry 10 do not', async () => {
    assert.equal(
      (await patch({ maxretry: 20, categories: { sip: { maxretry: 3 }, http: { maxretry: 10 } } })).status,
      200,
    );
    fail('sip', '198.51.100.21', 3);
    fail('http', '198.51.100.22', 9);
    assert.deepEqual(
      (await banned()).map((b) => `${b.category} ${b.ip}`),
      ['sip 198.51.100.21'],
    );
  });

  test('a 30-day ban (Paranoid) is allowed, listed with its real time, and published capped at 2147483 s', async () => {
    assert.equal((await patch({ preset: 'paranoid' })).status, 200);
    fail('sip', '198.51.100.30', 3);
    const [ban] = await banned();
    assert.ok(ban && ban.secondsLeft > 2_591_940 && ban.secondsLeft <= 2_592_000, JSON.stringify(ban));
    const stream = await poll(t, key);
    const decision = stream.new.find((d) => d.value === '198.51.100.30');
    assert.equal(decision?.duration, '2147483s');
  });

  test(
    'repeat offenders: bantime 600 and multipliers "1 2 4" publish the third ban with about ' +
      '2400 s, "3rd" in both lists; maxtime caps',
    async () => {
      assert.equal(
        (await patch({ maxretry: 1, bantime: 600, bantimeIncrement: true, bantimeMultipliers: '1 2 4' })).status,
        200,
      );
      assert.deepEqual((await t.call(FAIL2BAN)).json.data.bantimeMultipliers, [1, 2, 4]);
      const ip = '198.51.100.40';
      for (let i = 0; i < 2; i++) {
        fail('sip', ip);
        await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip } });
      }
      fail('sip', ip);
      const [third] = await banned();
      assert.equal(third?.banNumber, 3);
      assert.ok(third.secondsLeft > 2340 && third.secondsLeft <= 2400, String(third.secondsLeft));
      const decision = (await poll(t, key)).new.find((d) => d.value === ip)!;
      assert.ok(Number(decision.duration.slice(0, -1)) > 2340, decision.duration);
      const log = (await t.call(`${FIREWALL}:getBanLog?search=${ip}`)).json.data as Array<{
        banNumber: number;
        state: string;
      }>;
      assert.deepEqual(
        log.map((r) => `${r.banNumber} ${r.state}`),
        ['3 active', '2 lifted', '1 lifted'],
      );
      await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip } });
      assert.equal((await patch({ bantimeMaxtime: 1800 })).status, 200);
      fail('sip', ip);
      const [fourth] = await banned();
      assert.equal(fourth?.banNumber, 4);
      assert.ok(fourth.secondsLeft <= 1800 && fourth.secondsLeft > 1740, String(fourth.secondsLeft));
    },
  );

  test('a whitelist entry saved over bans lifts them here and in the stream, says so, and is audited', async () => {
    const ip = '127.0.0.9'; // another host on loopback: this server's guard refuses it while banned
    fail('http', ip, 20);
    t.server.services.firewall!.bans.reloadIp(ip);
    await t.call(`${FIREWALL}:banIp`, { method: 'POST', body: { ip: '127.0.0.8/31', duration: '1h' } });
    assert.equal((await t.call(`${V3}/fail2ban`, { localAddress: ip })).status, 403);
    const first = await poll(t, key);
    assert.ok(first.new.some((d) => d.value === ip) && first.new.some((d) => d.value === '127.0.0.8/31'));
    const saved = await patch({
      whitelistEntries: [
        { value: '127.0.0.8/30', comment: 'customer office during the migration', until: inFuture(3_600_000) },
      ],
    });
    assert.equal(saved.status, 200, saved.text);
    assert.match(
      saved.json.messages.info.join(' '),
      new RegExp(
        String.raw`Lifted 2 ban\(s\) now whitelisted: .*127\.0\.0\.9 \(http\).*127\.0\.0\.8\/31 \(manual\)|` +
          String.raw`Lifted 2 ban\(s\) now whitelisted: .*127\.0\.0\.8\/31 \(manual\).*127\.0\.0\.9 \(http\)`,
      ),
    );
    assert.deepEqual(saved.json.data.whitelistEntries[0].comment, 'customer office during the migration');
    assert.notEqual((await t.call(`${V3}/fail2ban`, { localAddress: ip })).status, 403, 'no more 403');
    const next = await poll(t, key);
    // Deletions are repeated on a key's next polls (SPEC "Cursors"): only this test's addresses matter here.
    assert.deepEqual(
      next.deleted
        .map((d) => d.value)
        .filter((v) => v.startsWith('127.'))
        .sort(),
      ['127.0.0.8/31', ip],
    );
    assert.ok(!next.new.some((d) => d.value === ip));
    assert.ok(
      ((await t.call(WHITELIST, { headers: { 'X-Api-Key': key } })).json as string[]).includes('127.0.0.8/30'),
      '/v1/whitelist: a flat array of the entries in force',
    );
    fail('http', ip, 20);
    assert.equal((await banned()).length, 0, 'failures from it are not counted');
    const [entry] = await auditOf('fail2ban');
    assert.deepEqual([...(entry?.diff.find((c) => c.field === 'liftedBans')?.after as string[])].sort(), [
      '127.0.0.8/31 (manual)',
      '127.0.0.9 (http)',
    ]);
  });

  test('a trusted filter saved over a ban lifts it in the same step and says so', async () => {
    const ip = '127.0.0.12';
    fail('sip', ip, 20);
    await poll(t, key);
    const created = await t.call(FIREWALL, {
      method: 'POST',
      body: { permit: '127.0.0.12/32', newer_block_ip: true, description: 'Rescued host' },
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.json.messages.info.join(' '), /127\.0\.0\.12 \(sip\)/);
    assert.equal((await banned()).length, 0);
    const after = await poll(t, key);
    assert.ok(
      after.deleted.some((d) => d.value === ip && d.scenario === 'pbx/sip'),
      'in deleted',
    );
    assert.ok(!after.new.some((d) => d.value === ip), 'no longer in new');
    const [entry] = await auditOf('firewall');
    assert.deepEqual(entry?.diff.find((c) => c.field === 'liftedBans')?.after, ['127.0.0.12 (sip)']);
    await t.call(`${FIREWALL}/${created.json.data.id}`, { method: 'DELETE' });
  });

  test('"Unban and whitelist": one call lifts the bans, adds the entry with its comment and end, one audit entry', async () => {
    const ip = '198.51.100.60';
    fail('sip', ip, 20);
    fail('ami', ip, 20);
    const past = await t.call(`${FIREWALL}:unbanAndWhitelist`, {
      method: 'POST',
      body: { ip, until: '2020-01-01T00:00:00Z' },
    });
    assert.equal(past.status, 422);
    assert.match(past.json.messages.error[0], /^until: .*in the past/);
    const until = inFuture(86_400_000);
    const answer = await t.call(`${FIREWALL}:unbanAndWhitelist`, {
      method: 'POST',
      body: { ip, comment: 'provider trunk', until },
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json.data.lifted.map((b: { category: string }) => b.category).sort(), ['ami', 'sip']);
    assert.deepEqual(answer.json.data.whitelisted, { value: ip, comment: 'provider trunk', until });
    assert.equal((await banned()).length, 0);
    const entries = (await t.call(FAIL2BAN)).json.data.whitelistEntries;
    assert.deepEqual(entries, [{ value: ip, comment: 'provider trunk', until }]);
    const audit = (await auditOf('firewall')).filter((e) => e.operation === 'unbanAndWhitelist');
    assert.equal(audit.length, 1);
    assert.deepEqual([...(audit[0]!.diff.find((c) => c.field === 'liftedBans')?.after as string[])].sort(), [
      `${ip} (ami)`,
      `${ip} (sip)`,
    ]);
    assert.equal(audit[0]!.diff.find((c) => c.field === 'comment')?.after, 'provider trunk');
    const forGood = await t.call(`${FIREWALL}:unbanAndWhitelist`, { method: 'POST', body: { ip } });
    assert.deepEqual(
      forGood.json.data.whitelisted,
      { value: ip, comment: '', until: null },
      'the same value is replaced, not duplicated',
    );
    assert.equal((await t.call(FAIL2BAN)).json.data.whitelistEntries.length, 1);
  });

  test(
    'an IPv6 prefix within the expansion limit reaches expand_ranges keys as its addresses ' +
      'under its own scenario, and leaves the same way',
    async () => {
      const db = t.server.services.db;
      const expanding = createTestApiKey(db, { description: 'nftables' });
      db.prepare('UPDATE api_keys SET expand_ranges = 1 WHERE id = ?').run(expanding.id);
      assert.equal((await patch({ maxretry: 3, ipv6ByPrefix: true, ipv6Prefix: 120 })).status, 200);
      await poll(t, expanding.key, '?startup=true');
      for (const ip of ['2001:db8:7::1', '2001:db8:7::2', '2001:db8:7::3']) fail('sip', ip);
      const served = (await poll(t, expanding.key)).new.filter((d) => d.value.startsWith('2001:db8:7::'));
      const addresses = served.filter((d) => d.scope === 'Ip');
      assert.equal(addresses.length, 256);
      assert.ok(
        addresses.every((d) => d.scenario === 'pbx/sip'),
        'the ban scenario, not pbx/manual',
      );
      assert.ok(addresses.some((d) => d.value === '2001:db8:7::ff'));
      await t.call(`${FIREWALL}:unbanIp`, { method: 'POST', body: { ip: '2001:db8:7::/120' } });
      const deleted = (await poll(t, expanding.key)).deleted.filter(
        (d) => d.value.startsWith('2001:db8:7::') && d.scope === 'Ip',
      );
      assert.equal(deleted.length, 256, 'every address it was served is deleted');
      assert.ok(deleted.every((d) => d.scenario === 'pbx/sip'));
    },
  );

  test('a whitelist entry covering 150 bans lifts them all with one re-read on the web thread, and every one reaches deleted', async () => {
    const ips = Array.from({ length: 150 }, (_, i) => `203.0.113.${i + 1}`);
    for (const ip of ips) fail('ami', ip, 20);
    await poll(t, key);
    const saved = await patch({
      whitelistEntries: [{ value: '203.0.113.0/24', comment: 'carrier moved here', until: null }],
    });
    assert.equal(saved.status, 200, saved.text);
    assert.match(saved.json.messages.info[0], /^Lifted 150 ban\(s\)/);
    const firewall = t.server.services.firewall!;
    assert.ok(
      ips.every((ip) => !firewall.bans.isBanned(ip)),
      'the web thread dropped them',
    );
    const deleted = new Set((await poll(t, key)).deleted.filter((d) => d.scenario === 'pbx/ami').map((d) => d.value));
    assert.ok(
      ips.every((ip) => deleted.has(ip)),
      `all 150 in deleted (${deleted.size})`,
    );
  });
});
