import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestServer } from '../../test-support/server.ts';

const FAIL2BAN = '/pbxcore/api/v3/fail2ban';
/** The fields issue 20 added, at their defaults. */
const POLICY_DEFAULTS = {
  preset: 'weak',
  categories: {},
  whitelistEntries: [],
  bantimeIncrement: false,
  bantimeFactor: 1,
  bantimeMultipliers: null,
  bantimeMaxtime: 31_536_000,
  bantimeRndtime: 0,
  bantimeOveralljails: false,
  ipv6ByPrefix: false,
  ipv6Prefix: 64,
  // Neighbourhood escalation (issue 3/6 item 3): off.
  escalation: false,
  escalationBans: 5,
  escalationWindow: 3600,
  escalationIpv4Prefix: 24,
  escalationIpv6Prefix: 48,
  slowWindow: false,
  slowMaxretry: 40,
  slowFindtime: 86_400,
  slowBantime: 86_400,
  // Registered phones are never cut off (issue 3/6).
  protectRegistered: true,
  registeredLingerMinutes: 5,
};

describe('fail2ban singleton', () => {
  const t = useTestServer();

  test('defaults, validation per ARCHITECTURE, unknown fields ignored and never echoed', async () => {
    const initial = await t.call(FAIL2BAN);
    assert.deepEqual(initial.json.data, {
      maxretry: 20,
      bantime: 600,
      findtime: 600,
      whitelist: '',
      PBXFirewallMaxReqSec: 100,
      ...POLICY_DEFAULTS,
    });
    for (const body of [
      { maxretry: 0 },
      { maxretry: 101 },
      { bantime: 59 },
      { findtime: 10 },
      { maxretry: 'many' },
      { whitelist: '10.0.0.1, junk' },
      { whitelist: 'fe80::1%eth0' },
    ]) {
      const response = await t.call(FAIL2BAN, { method: 'PATCH', body });
      assert.equal(response.status, 422, JSON.stringify(body));
    }
    const saved = await t.call(FAIL2BAN, {
      method: 'PATCH',
      body: { maxretry: '5', bantime: 3600, whitelist: '10.0.0.0/8 2001:db8::1', secretSauce: true },
    });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.json.data, {
      maxretry: 5,
      bantime: 3600,
      findtime: 600,
      whitelist: '10.0.0.0/8 2001:db8::1',
      PBXFirewallMaxReqSec: 100,
      ...POLICY_DEFAULTS,
      preset: 'custom',
    });
    assert.deepEqual((await t.call(FAIL2BAN)).json.data, saved.json.data);
    assert.equal(t.server.services.firewall!.state.settings.maxretry, 5, 'the web thread picked up the change');
    assert.equal((await t.call(`${FAIL2BAN}/1`)).status, 404);
    assert.equal((await t.call(FAIL2BAN, { method: 'DELETE' })).status, 405);
  });

  test('stores whitelist entries canonical, separators as written, and checks them as such', async () => {
    const saved = await t.call(FAIL2BAN, {
      method: 'PATCH',
      body: { whitelist: ' ::ffff:10.20.0.1, ::ffff:172.16.0.0/108  2001:DB8:0:0::/64 ' },
    });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.json.data.whitelist, '10.20.0.1, 172.16.0.0/12  2001:db8::/64');
    const stored = t.server.services.db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as {
      value: string;
    };
    assert.equal(JSON.parse(stored.value).whitelist, '10.20.0.1, 172.16.0.0/12  2001:db8::/64');
    // A deny entry now overlaps the mapped whitelist entry as the IPv4 address it is.
    const deny = await t.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '10.30.0.0/16', deny: '10.20.0.1' },
    });
    assert.equal(deny.status, 422, deny.text);
    assert.equal((await t.call(FAIL2BAN, { method: 'PATCH', body: { whitelist: '' } })).status, 200);
  });

  test('new rules apply to the next bans: maxretry and bantime', async () => {
    assert.equal(
      (await t.call(FAIL2BAN, { method: 'PUT', body: { maxretry: 2, bantime: 120, findtime: 60 } })).status,
      200,
    );
    t.server.services.bus.emit({ type: 'security-failure', category: 'sip', ip: '10.90.0.1', reason: 'x' });
    t.server.services.bus.emit({ type: 'security-failure', category: 'sip', ip: '10.90.0.1', reason: 'x' });
    const bans = await t.call('/pbxcore/api/v3/firewall:getBannedIps');
    const ban = bans.json.data.find((b: { ip: string }) => b.ip === '10.90.0.1');
    assert.ok(ban && ban.secondsLeft <= 120 && ban.secondsLeft > 110);
  });
});
