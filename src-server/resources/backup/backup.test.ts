import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../test-support/server.ts';
import { KEYS_NOT_RESTORED } from './config-backup.ts';

const V3 = '/pbxcore/api/v3';
const EXPORT = `${V3}/backup:exportConfig`;
const IMPORT = `${V3}/backup:importConfig`;

/** The state compared across servers, read through the API as a client sees it. */
async function stateOf(t: TestServer) {
  const [filters, fail2ban, general, ami] = await Promise.all(
    ['firewall', 'fail2ban', 'general-settings', 'ami'].map((name) => t.call(`${V3}/${name}`)),
  );
  return {
    filters: filters!.json.data,
    fail2ban: fail2ban!.json.data,
    general: general!.json.data,
    ami: ami!.json.data,
  };
}

async function ok(t: TestServer, path: string, body: unknown, method = 'POST') {
  const answer = await t.call(path, { method, body });
  assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json.data;
}

describe('backup: export and import of the configuration', () => {
  let source: TestServer;
  let target: TestServer;
  let exported: Record<string, unknown>;
  before(async () => {
    [source, target] = await Promise.all([startTestServer(), startTestServer()]);
    const office = await ok(source, `${V3}/firewall`, {
      permit: '192.0.2.0/24',
      description: 'Office',
      newer_block_ip: true,
      currentRules: { SIP: true, WEB: true, AMI: false, IAX: false },
    });
    await ok(source, `${V3}/firewall`, {
      permit: '198.51.100.0/24',
      deny: '203.0.113.0/24,203.0.114.7',
      description: 'Carriers',
    });
    await ok(source, `${V3}/fail2ban`, { maxretry: 7, bantime: 3600, whitelist: '10.1.0.0/16 2001:db8::1' }, 'PATCH');
    await ok(source, `${V3}/general-settings`, { APIQueueMaxLength: 77 }, 'PATCH');
    await ok(
      source,
      `${V3}/ami`,
      { enabled: true, host: '127.0.0.1', port: 5039, username: 'console', secret: 'amipass' },
      'PUT',
    );
    await ok(source, `${V3}/api-keys`, {
      description: 'bouncer',
      allowed_paths: { '/api/v3/firewall-bouncer': 'read' },
      networkfilterid: String(office.id),
      expand_ranges: true,
    });
    exported = (await ok(source, EXPORT, undefined, 'GET')) as Record<string, unknown>;
  });
  after(() => Promise.all([source.close(), target.close()]));

  test('the export is versioned and holds every section, without key values, hashes or the AMI secret', () => {
    assert.equal(exported.format, 'pbx-console-config');
    assert.equal(exported.version, 1);
    assert.match(String(exported.serverVersion), /^\d+\.\d+\.\d+/);
    assert.ok(!Number.isNaN(Date.parse(String(exported.exportedAt))));
    assert.equal(exported.secretsIncluded, false);
    assert.equal((exported.networkFilters as unknown[]).length, 2);
    assert.equal((exported.fail2ban as Record<string, unknown>).whitelist, '10.1.0.0/16 2001:db8::1');
    assert.equal((exported.generalSettings as Record<string, unknown>).APIQueueMaxLength, 77);
    assert.deepEqual(exported.ami, { enabled: true, host: '127.0.0.1', port: 5039, username: 'console' });
    const [key] = exported.apiKeys as Array<Record<string, unknown>>;
    assert.deepEqual(Object.keys(key!).sort(), [
      'allowed_paths',
      'description',
      'enabled',
      'expand_ranges',
      'expires_at',
      'feed_interval_minutes',
      'full_permissions',
      'id',
      'networkfilterid',
    ]);
    const text = JSON.stringify(exported);
    assert.doesNotMatch(text, /amipass|key_hash|enc:v1/);
  });

  test('secrets=true adds the AMI secret in clear, and needs SENSITIVE (an ADMIN key without full_permissions gets 403)', async () => {
    const withSecrets = await ok(source, `${EXPORT}?secrets=true`, undefined, 'GET');
    assert.equal(withSecrets.ami.secret, 'amipass');
    assert.equal(withSecrets.secretsIncluded, true);
    const key = await ok(source, `${V3}/api-keys`, {
      description: 'backup script',
      allowed_paths: { '/api/v3/backup': 'write' },
    });
    const headers = { authorization: `Bearer ${key.key as string}` };
    assert.equal((await source.remote(EXPORT, { headers })).status, 200);
    assert.equal((await source.remote(`${EXPORT}?secrets=true`, { headers })).status, 403);
    await source.call(`${V3}/api-keys/${key.id as number}`, { method: 'DELETE' });
    assert.equal((await source.call(`${EXPORT}?secrets=maybe`)).status, 422);
  });

  test('a dry run reports the changes per section and writes nothing', async () => {
    const before = await stateOf(target);
    const preview = await ok(target, IMPORT, { config: exported, dryRun: true });
    assert.equal(preview.dryRun, true);
    assert.equal(preview.applied, false);
    assert.deepEqual(preview.sections.networkFilters.added, [
      '"Office" (192.0.2.0/24)',
      '"Carriers" (198.51.100.0/24)',
    ]);
    assert.deepEqual(preview.sections.fail2ban.changed, ['maxretry', 'bantime', 'whitelist']);
    assert.deepEqual(preview.sections.generalSettings.changed, ['APIQueueMaxLength']);
    assert.deepEqual(preview.sections.ami.changed, ['enabled', 'port', 'username']);
    assert.equal(preview.sections.apiKeys.notRestored, 1);
    assert.equal(preview.sections.apiKeys.note, KEYS_NOT_RESTORED);
    assert.deepEqual(await stateOf(target), before);
  });

  test('invalid input: 422 naming the section and field, nothing written', async () => {
    const before = await stateOf(target);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { ...exported, fail2ban: { ...(exported.fail2ban as object), bantime: 40_000_000 } },
        /^fail2ban\.bantime: .*31536000/,
      ],
      [{ ...exported, generalSettings: { APIQueueMaxLength: 0 } }, /^generalSettings\.APIQueueMaxLength:/],
      [
        { ...exported, networkFilters: [{ id: 1, permit: 'not an address', description: 'Broken' }] },
        /^networkFilters\[0\] \("Broken"\)\.permit:/,
      ],
      [{ ...exported, ami: { enabled: true, username: '' } }, /^ami\.username is required/],
      // Strict types: a backup is what an export wrote, so "77" for a number is a mistake, never converted.
      [{ ...exported, generalSettings: { APIQueueMaxLength: '77' } }, /^generalSettings\.APIQueueMaxLength: .*number/],
      [{ ...exported, fail2ban: { ...(exported.fail2ban as object), maxretry: '7' } }, /^fail2ban\.maxretry: .*number/],
      [
        { ...exported, networkFilters: [{ id: 1, permit: '192.0.2.0/24', newer_block_ip: 'true' }] },
        /^networkFilters\[0\]\.newer_block_ip: must be true or false/,
      ],
      [
        { ...exported, networkFilters: [{ id: '1', permit: '192.0.2.0/24' }] },
        /^networkFilters\[0\]\.id: must be a positive integer/,
      ],
      // Ids are bounded: beyond 2^31 - 1 the id sequence would be poisoned.
      [
        { ...exported, networkFilters: [{ id: 2 ** 31, permit: '192.0.2.0/24' }] },
        /^networkFilters\[0\]\.id: 2147483648 is above 2147483647/,
      ],
      [
        { ...exported, networkFilters: [{ id: 2 ** 53 + 2, permit: '192.0.2.0/24' }] },
        /^networkFilters\[0\]\.id: .* is above 2147483647/,
      ],
      [{ ...exported, apiKeys: [{ id: 2 ** 40, description: 'x' }] }, /^apiKeys\[0\]\.id: .* is above 2147483647/],
      [{ ...exported, version: 2 }, /^version:/],
      // The whitelist overlaps a deny entry of an imported filter.
      [
        { ...exported, fail2ban: { ...(exported.fail2ban as object), whitelist: '203.0.113.9' } },
        /^networkFilters\[1\] \("Carriers"\)\.deny: "203\.0\.113\.0\/24" overlaps the fail2ban whitelist entry/,
      ],
    ];
    for (const [config, pattern] of cases) {
      const answer = await target.call(IMPORT, { method: 'POST', body: { config } });
      assert.equal(answer.status, 422, answer.text);
      assert.ok(
        answer.json.messages.error.some((e: string) => pattern.test(e)),
        `${pattern}: ${answer.text}`,
      );
    }
    assert.deepEqual(await stateOf(target), before);
  });

  test('key metadata bound to a filter the file does not hold (deleted before the export) is accepted with a warning', async () => {
    const report = await ok(target, IMPORT, {
      config: { ...exported, apiKeys: [{ id: 4, description: 'old bouncer', networkfilterid: '99' }] },
      dryRun: true,
    });
    assert.equal(report.sections.apiKeys.notRestored, 1);
    assert.match(
      report.warnings.join(' '),
      /apiKeys\[0\]\.networkfilterid: the key "old bouncer" was bound to network filter 99, which this file does not hold/,
    );
  });

  test('export then import into a fresh server gives the same state; the AMI secret stays the stored one', async () => {
    const report = await ok(target, IMPORT, { config: exported });
    assert.equal(report.applied, true);
    assert.deepEqual(await stateOf(target), await stateOf(source));
    assert.deepEqual((await target.call(`${V3}/api-keys`)).json.data, [], 'keys are not restored');
    // The web thread reloaded: the imported whitelist is what bouncers get.
    const whitelist = (await target.call(`${V3}/firewall:getWhitelist`)).json.data;
    assert.match(JSON.stringify(whitelist), /10\.1\.0\.0\/16/);
    // Importing the same file again changes nothing.
    const again = await ok(target, IMPORT, { config: exported, dryRun: true });
    for (const section of ['networkFilters', 'fail2ban', 'generalSettings', 'ami'] as const) {
      assert.deepEqual(again.sections[section], { added: [], changed: [], removed: [] }, section);
    }
  });

  test('an import that removes a filter a key on this server is bound to is refused', async () => {
    const filter = (await target.call(`${V3}/firewall`)).json.data[0];
    const key = await ok(target, `${V3}/api-keys`, { description: 'bound', networkfilterid: String(filter.id) });
    const answer = await target.call(IMPORT, {
      method: 'POST',
      body: { config: { ...exported, networkFilters: [], apiKeys: [] } },
    });
    assert.equal(answer.status, 422);
    assert.match(
      answer.json.messages.error.join(' '),
      /the key "bound" on this server is bound to network filter "Office" \(192\.0\.2\.0\/24\)/,
    );
    await target.call(`${V3}/api-keys/${key.id as number}`, { method: 'DELETE' });
    const removed = await ok(target, IMPORT, {
      config: { ...exported, networkFilters: [], apiKeys: [] },
      dryRun: true,
    });
    assert.deepEqual(removed.sections.networkFilters.removed, [
      '"Office" (192.0.2.0/24)',
      '"Carriers" (198.51.100.0/24)',
    ]);
  });

  test('an AMI secret in the file needs SENSITIVE; from localhost it is stored sealed', async () => {
    const config = { ...exported, ami: { ...(exported.ami as object), secret: 'newpass' } };
    const key = await ok(target, `${V3}/api-keys`, {
      description: 'importer',
      allowed_paths: { '/api/v3/backup': 'write' },
    });
    const refused = await target.remote(IMPORT, {
      method: 'POST',
      body: { config },
      headers: { authorization: `Bearer ${key.key as string}` },
    });
    assert.equal(refused.status, 403, refused.text);
    await ok(target, IMPORT, { config });
    const stored = target.server.services.db
      .prepare("SELECT value FROM settings WHERE key = 'ami'")
      .pluck()
      .get() as string;
    assert.match(JSON.parse(stored).secret, /^enc:v1:/);
    assert.equal((await ok(target, `${EXPORT}?secrets=true`, undefined, 'GET')).ami.secret, 'newpass');
  });
});
