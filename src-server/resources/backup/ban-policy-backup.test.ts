import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const IMPORT = `${V3}/backup:importConfig`;

/** A backup written before issue 20: fail2ban has only its five original fields. */
const OLD_BACKUP = {
  format: 'pbx-console-config',
  version: 1,
  serverVersion: '0.1.0',
  exportedAt: '2026-11-23T18:00:00.000Z',
  secretsIncluded: false,
  networkFilters: [
    {
      id: 1,
      permit: '192.0.2.0/24',
      deny: '0.0.0.0/0',
      description: 'Office',
      newer_block_ip: true,
      local_network: false,
      currentRules: { SIP: true, WEB: true, AMI: false, IAX: false },
    },
  ],
  fail2ban: { maxretry: 12, bantime: 900, findtime: 600, whitelist: '10.9.0.0/16', PBXFirewallMaxReqSec: 100 },
  generalSettings: { APIQueueMaxLength: 50, APIRequestTTL: 35 },
  ami: { enabled: false, host: '127.0.0.1', port: 5038, username: '' },
  apiKeys: [],
};

describe('backup and restore of the ban policy', () => {
  let source: TestServer;
  let target: TestServer;
  before(async () => {
    [source, target] = await Promise.all([startTestServer(), startTestServer()]);
  });
  after(() => Promise.all([source.close(), target.close()]));

  test(
    'every new setting travels: preset values, category rules, increment, IPv6 prefix, ' +
      'whitelist entries with comment and end',
    async () => {
      const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const policy = {
        preset: 'enhanced',
        categories: { sip: { maxretry: 3 }, http: { bantime: 900 } },
        bantimeIncrement: true,
        bantimeMultipliers: [1, 2, 4],
        bantimeFactor: 1.5,
        bantimeMaxtime: 2_592_000,
        bantimeRndtime: 30,
        bantimeOveralljails: true,
        ipv6ByPrefix: true,
        ipv6Prefix: 56,
        whitelistEntries: [
          { value: '198.51.100.7', comment: 'customer office during the migration', until },
          { value: '2001:db8:9::/48', comment: 'monitoring', until: null },
        ],
      };
      const saved = await source.call(`${V3}/fail2ban`, { method: 'PATCH', body: policy });
      assert.equal(saved.status, 200, saved.text);
      const exported = (await source.call(`${V3}/backup:exportConfig`)).json.data;
      assert.deepEqual(exported.fail2ban.whitelistEntries, policy.whitelistEntries);
      assert.equal('preset' in exported.fail2ban, false, 'the preset is derived from the numbers, not stored');
      const restored = await target.call(IMPORT, { method: 'POST', body: { config: exported } });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual(
        (await target.call(`${V3}/fail2ban`)).json.data,
        (await source.call(`${V3}/fail2ban`)).json.data,
      );
      assert.equal(target.server.services.firewall!.state.settings.ipv6Prefix, 56, 'the web thread follows the import');
    },
  );

  test('a backup from before this change still restores: the new settings take their defaults', async () => {
    const restored = await target.call(IMPORT, { method: 'POST', body: { config: OLD_BACKUP } });
    assert.equal(restored.status, 200, restored.text);
    const data = (await target.call(`${V3}/fail2ban`)).json.data;
    assert.equal(data.maxretry, 12);
    assert.equal(data.whitelist, '10.9.0.0/16');
    assert.deepEqual(
      [
        data.preset,
        data.categories,
        data.bantimeIncrement,
        data.bantimeMultipliers,
        data.ipv6ByPrefix,
        data.ipv6Prefix,
        data.whitelistEntries,
      ],
      ['custom', {}, false, null, false, 64, []],
    );
  });

  test('a backup holding a whitelist entry that has ended since restores without it', async () => {
    const ended = {
      ...OLD_BACKUP,
      fail2ban: {
        ...OLD_BACKUP.fail2ban,
        whitelistEntries: [
          { value: '203.0.113.9', comment: 'old migration', until: '2026-01-01T00:00:00Z' },
          { value: '203.0.113.10', comment: 'kept', until: null },
        ],
      },
    };
    const restored = await target.call(IMPORT, { method: 'POST', body: { config: ended } });
    assert.equal(restored.status, 200, restored.text);
    assert.deepEqual((await target.call(`${V3}/fail2ban`)).json.data.whitelistEntries, [
      { value: '203.0.113.10', comment: 'kept', until: null },
    ]);
  });

  test('a preset written in a file is not stored: the numbers the file holds decide what reads back', async () => {
    const withPreset = { ...OLD_BACKUP, fail2ban: { ...OLD_BACKUP.fail2ban, preset: 'paranoid' } };
    const restored = await target.call(IMPORT, { method: 'POST', body: { config: withPreset } });
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await target.call(`${V3}/fail2ban`)).json.data.preset, 'custom');
    const stored = target.server.services.db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as {
      value: string;
    };
    assert.equal('preset' in JSON.parse(stored.value), false);
  });
});
