import assert from 'node:assert/strict';
import { before, beforeEach, describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { createFilter, poll, values } from '../../test-support/bouncer.ts';
import { useTestServer } from '../../test-support/server.ts';
import type { BanCategory } from '../model/index.ts';

const V3 = '/pbxcore/api/v3';
const FAIL2BAN = `${V3}/fail2ban`;
const FIREWALL = `${V3}/firewall`;
/** Each failure bans (maxretry 1); escalation at 3 addresses of a /24 or /48 within 1 h. */
const RULES = {
  maxretry: 1,
  findtime: 600,
  bantime: 7200,
  categories: {},
  whitelist: '',
  whitelistEntries: [],
  escalation: true,
  escalationBans: 3,
  escalationWindow: 3600,
  escalationIpv4Prefix: 24,
  escalationIpv6Prefix: 48,
};

interface Listed {
  ip: string;
  category: string;
  reason?: string;
  escalatedFrom?: number;
  expiresAt: string;
}
interface Logged {
  ip: string;
  category: string;
  reason: string;
  state: string;
  liftedBy: string | null;
}

describe('neighbourhood escalation through the real server (issue 3/6 item 3)', () => {
  const clock = new ManualClock(Date.now()); // the queue stamps jobs with this clock and workers compare with Date.now()
  const t = useTestServer({ clock });
  let key: string;
  let initial: Record<string, unknown>;
  const fail = (category: BanCategory, ip: string) =>
    t.server.services.bus.emit({ type: 'security-failure', category, ip, reason: 'wrong password' });
  const patch = (body: Record<string, unknown>) => t.call(FAIL2BAN, { method: 'PATCH', body });
  const banned = async (search = '') =>
    (await t.call(`${FIREWALL}:getBannedIps?search=${encodeURIComponent(search)}`)).json.data as Listed[];
  const history = async (search: string) =>
    (await t.call(`${FIREWALL}:getBanLog?limit=100&search=${encodeURIComponent(search)}`)).json.data as Logged[];

  before(async () => {
    key = createTestApiKey(t.server.services.db).key;
    initial = (await t.call(FAIL2BAN)).json.data;
  });
  beforeEach(async () => {
    const saved = await patch(RULES);
    assert.equal(saved.status, 200, saved.text);
    const ips = (await banned()).map((b) => b.ip);
    if (ips.length) await t.post(`${FIREWALL}:unbanIps`, { ips });
  });

  test('settings: off by default, bounded, 422 naming the field; valid values read back', async () => {
    assert.deepEqual(
      [
        initial.escalation,
        initial.escalationBans,
        initial.escalationWindow,
        initial.escalationIpv4Prefix,
        initial.escalationIpv6Prefix,
      ],
      [false, 5, 3600, 24, 48],
      'a fresh PBX',
    );
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ escalationBans: 1 }, /^escalationBans: must be at least 2/],
      [{ escalationBans: 257 }, /^escalationBans: must be at most 256/],
      [{ escalationBans: 2.5 }, /^escalationBans: must be a whole number/],
      [{ escalationWindow: 59 }, /^escalationWindow: must be at least 60 s/],
      [{ escalationWindow: 604_801 }, /^escalationWindow: must be at most 604800 s/],
      [{ escalationIpv4Prefix: 15 }, /^escalationIpv4Prefix: must be at least 16/],
      [{ escalationIpv4Prefix: 33 }, /^escalationIpv4Prefix: must be at most 32/],
      [{ escalationIpv6Prefix: 31 }, /^escalationIpv6Prefix: must be at least 32/],
      [{ escalationIpv6Prefix: 65 }, /^escalationIpv6Prefix: must be at most 64/],
      [{ escalation: 'sometimes' }, /^escalation: /],
    ];
    for (const [body, message] of cases) {
      const answer = await patch(body);
      assert.equal(answer.status, 422, `${JSON.stringify(body)}: ${answer.text}`);
      assert.match(answer.json.messages.error.join(' | '), message, JSON.stringify(body));
    }
    const unchanged = (await t.call(FAIL2BAN)).json.data;
    assert.deepEqual(
      [unchanged.escalationBans, unchanged.escalationWindow, unchanged.escalationIpv4Prefix],
      [3, 3600, 24],
    );
    const saved = await patch({ escalationBans: 256, escalationWindow: 60, escalationIpv4Prefix: 16 });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(
      [saved.json.data.escalationBans, saved.json.data.escalationWindow, saved.json.data.escalationIpv4Prefix],
      [256, 60, 16],
    );
  });

  test('off: five bans of one /24 stay five single bans', async () => {
    await patch({ escalation: false });
    for (let i = 1; i <= 5; i++) fail('sip', `198.18.0.${i}`);
    const list = await banned('198.18.0.');
    assert.equal(list.length, 5);
    assert.ok(list.every((b) => !b.escalatedFrom && !b.ip.includes('/')));
  });

  test('3 bans of one /24 within 1 h become one Range ban; the stream publishes it and deletes the singles', async () => {
    await poll(t, key, '?startup=true');
    fail('sip', '198.51.100.1');
    fail('sip', '198.51.100.2');
    fail('http', '198.51.100.3'); // another category counts apart
    const before = await poll(t, key);
    assert.deepEqual(values(before.new), ['198.51.100.1 pbx/sip', '198.51.100.2 pbx/sip', '198.51.100.3 pbx/http']);
    fail('sip', '198.51.100.9');
    const list = await banned('198.51.100.');
    assert.deepEqual(
      list.map((b) => `${b.ip} ${b.category}`),
      ['198.51.100.0/24 sip', '198.51.100.3 http'],
    );
    const range = list[0]!;
    assert.equal(range.reason, 'escalated: 3 bans in 198.51.100.0/24 within 1 h');
    assert.equal(range.escalatedFrom, 3);
    assert.equal(list[1]!.escalatedFrom, undefined);

    const answer = await poll(t, key);
    // (A fresh decision is repeated for a few polls: .3 may come again.)
    assert.deepEqual(
      values(answer.new).filter((v) => v.endsWith('pbx/sip')),
      ['198.51.100.0/24 pbx/sip'],
    );
    assert.equal(answer.new.find((d) => d.value === '198.51.100.0/24')!.scope, 'Range');
    assert.deepEqual(values(answer.deleted), ['198.51.100.1 pbx/sip', '198.51.100.2 pbx/sip']);

    const log = await history('198.51.100.');
    const singles = log.filter((e) => e.category === 'sip' && !e.ip.includes('/'));
    assert.deepEqual(singles.map((e) => `${e.ip} ${e.state} ${e.liftedBy}`).sort(), [
      '198.51.100.1 lifted escalated into 198.51.100.0/24',
      '198.51.100.2 lifted escalated into 198.51.100.0/24',
      '198.51.100.9 lifted escalated into 198.51.100.0/24',
    ]);

    fail('sip', '198.51.100.77');
    assert.equal((await banned('198.51.100.77')).length, 0, 'a failure inside the escalated range bans nothing more');

    // Unban of the range lifts it: deleted from the stream, lifted in the history.
    const lifted = await t.post(`${FIREWALL}:unbanIp`, { ip: '198.51.100.0/24' });
    assert.equal(lifted.status, 200, lifted.text);
    assert.equal(lifted.json.data.lifted, 1);
    assert.deepEqual(
      (await banned('198.51.100.')).map((b) => b.ip),
      ['198.51.100.3'],
    );
    const afterUnban = await poll(t, key); // (a deletion is repeated for a few polls: .1 and .2 may come again)
    assert.ok(values(afterUnban.deleted).includes('198.51.100.0/24 pbx/sip'));
    assert.ok(!values(afterUnban.new).includes('198.51.100.0/24 pbx/sip'));
    const rangeLog = (await history('198.51.100.0/24')).find((e) => e.ip === '198.51.100.0/24')!;
    assert.equal(rangeLog.state, 'lifted');
    assert.match(rangeLog.reason, /^escalated: 3 bans/);
  });

  test('the window: bans older than it do not count, but a range escalated later replaces them too', async () => {
    fail('ami', '203.0.113.1');
    clock.advance(3000_000);
    fail('ami', '203.0.113.2');
    clock.advance(700_000); // .1 is 3700 s old: out of the 1 h window
    fail('ami', '203.0.113.3');
    assert.equal((await banned('203.0.113.')).length, 3, 'two within the window: no escalation');
    fail('ami', '203.0.113.4');
    const list = await banned('203.0.113.');
    assert.deepEqual(
      list.map((b) => `${b.ip} ${b.reason} ${b.escalatedFrom}`),
      ['203.0.113.0/24 escalated: 3 bans in 203.0.113.0/24 within 1 h 4'],
    );
    // The range lasts the category's bantime from now (every single it replaced ended earlier).
    assert.equal(Date.parse(list[0]!.expiresAt), clock.now() + 7200_000);
  });

  test('IPv6 escalates to the /48', async () => {
    for (const ip of ['2001:db8:5:1::1', '2001:db8:5:2::1', '2001:db8:5:ffff::9']) fail('iax', ip);
    const list = await banned('2001:db8:5:');
    assert.deepEqual(
      list.map((b) => `${b.ip} ${b.category} ${b.reason}`),
      ['2001:db8:5::/48 iax escalated: 3 bans in 2001:db8:5::/48 within 1 h'],
    );
  });

  test('never over a whitelisted address: the singles stay and the reason says why', async () => {
    await patch({ whitelist: '192.0.2.50' });
    for (let i = 1; i <= 3; i++) fail('sip', `192.0.2.${i}`);
    const list = await banned('192.0.2.');
    assert.deepEqual(list.map((b) => b.ip).sort(), ['192.0.2.1', '192.0.2.2', '192.0.2.3']);
    const newest = list.find((b) => b.ip === '192.0.2.3')!;
    assert.equal(newest.reason, 'wrong password; not escalated to 192.0.2.0/24: it holds 192.0.2.50 (whitelisted)');
    assert.equal(list.find((b) => b.ip === '192.0.2.1')!.reason, 'wrong password');
  });

  test('never over a trusted network or loopback', async () => {
    const filter = await createFilter(t, { permit: '100.64.7.128/25', newer_block_ip: true, description: 'office' });
    try {
      for (let i = 1; i <= 3; i++) fail('sip', `100.64.7.${i}`);
      const list = await banned('100.64.7.');
      assert.equal(list.length, 3);
      assert.match(
        list.find((b) => b.ip === '100.64.7.3')!.reason!,
        /not escalated to 100\.64\.7\.0\/24: it holds 100\.64\.7\.128\/25 \(trusted\)$/,
      );
    } finally {
      await t.call(`${FIREWALL}/${filter.id}`, { method: 'DELETE' });
    }
    for (let i = 2; i <= 4; i++) fail('http', `127.0.0.${i}`);
    const loopback = await banned('127.0.0.');
    assert.equal(loopback.length, 3);
    assert.match(
      loopback.find((b) => b.ip === '127.0.0.4')!.reason!,
      /not escalated to 127\.0\.0\.0\/24: it holds 127\.0\.0\.1 \(host loopback\)$/,
    );
  });
});
