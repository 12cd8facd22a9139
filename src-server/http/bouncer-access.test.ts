import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { BOUNCER_PATHS, createTestApiKey } from '../test-support/api-keys.ts';
import { REMOTE, useTestServer } from '../test-support/server.ts';
import { banThroughFailures, createFilter, poll, STREAM, WHITELIST } from '../test-support/bouncer.ts';

const DECISIONS = '/pbxcore/api/v3/firewall-bouncer/v1/decisions';
const PATHS = [STREAM, DECISIONS, WHITELIST];

/** The bouncer error shape: the envelope plus a top-level message. */
function assertBouncerError(response: { status: number; json: Record<string, unknown> }, status: number): void {
  assert.equal(response.status, status);
  assert.equal(response.json.result, false);
  assert.deepEqual(response.json.data, []);
  const errors = (response.json.messages as { error: string[] }).error;
  assert.ok(errors.length > 0);
  assert.equal(typeof response.json.message, 'string');
  assert.equal(response.json.message, errors.join('; '));
}

describe('bouncer export: credentials (401/403 matrix)', () => {
  let good: string;
  const t = useTestServer();
  before(async () => {
    good = createTestApiKey(t.server.services.db).key;
  });

  test('no credential: 401 from anywhere, localhost included (no bypass)', async () => {
    for (const path of PATHS) {
      assertBouncerError(await t.call(path), 401);
      assertBouncerError(await t.remote(path), 401);
    }
  });

  test('malformed, unknown and non-Bearer credentials: 401', async () => {
    const cases: Record<string, string>[] = [
      { 'X-Api-Key': 'not-a-key' },
      { 'X-Api-Key': 'a'.repeat(64) },
      { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` },
      { Authorization: 'Bearer None' },
      { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2ln' },
      // Authorization wins over X-Api-Key (SPEC): an invalid Bearer is not rescued by a valid X-Api-Key.
      { Authorization: `Bearer ${'b'.repeat(64)}`, 'X-Api-Key': good },
    ];
    for (const headers of cases) {
      for (const path of PATHS) assertBouncerError(await t.call(path, { headers }), 401);
    }
  });

  test('a revoked key stops at once: 401', async () => {
    const { id, key } = createTestApiKey(t.server.services.db);
    assert.equal((await t.call(STREAM, { headers: { 'X-Api-Key': key } })).status, 200);
    t.server.services.db.prepare('DELETE FROM api_keys WHERE id = ?').run(id);
    assertBouncerError(await t.call(STREAM, { headers: { 'X-Api-Key': key } }), 401);
    const cursors = t.server.services.firewall!.cursors;
    assert.notEqual(cursors.servedVersion(id), undefined);
    cursors.forgetRevokedKeys(); // the minutely prune
    assert.equal(cursors.servedVersion(id), undefined, 'the revoked key no longer holds a cursor');
    assert.equal(
      t.server.services.db.prepare('SELECT COUNT(*) FROM bouncer_cursors WHERE key_id = ?').pluck().get(id),
      0,
    );
  });

  test('a key not allowed on /api/v3/firewall-bouncer: 403; full_permissions or a write grant: allowed', async () => {
    const denied = [
      createTestApiKey(t.server.services.db, { allowedPaths: {} }).key,
      createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/extensions': 'write' } }).key,
      createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/firewall': 'read' } }).key,
    ];
    for (const key of denied) {
      for (const path of PATHS) assertBouncerError(await t.call(path, { headers: { 'X-Api-Key': key } }), 403);
    }
    const allowed = [
      createTestApiKey(t.server.services.db, { allowedPaths: {}, fullPermissions: true }).key,
      createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/firewall-bouncer': 'write' } }).key,
    ];
    for (const key of allowed) {
      for (const path of PATHS)
        assert.equal((await t.call(path, { headers: { Authorization: `Bearer ${key}` } })).status, 200);
    }
  });

  test('a key bound to a network filter answers 403 to any other source', async () => {
    const filter = await createFilter(t, { permit: `${REMOTE}/32` });
    const bound = createTestApiKey(t.server.services.db, { networkFilterId: String(filter.id) }).key;
    for (const path of PATHS) {
      assert.equal((await t.remote(path, { headers: { 'X-Api-Key': bound } })).status, 200, path);
      assertBouncerError(await t.call(path, { headers: { 'X-Api-Key': bound } }), 403);
    }
    const localOnly = createTestApiKey(t.server.services.db, { networkFilterId: 'localhost' }).key;
    assert.equal((await t.call(WHITELIST, { headers: { 'X-Api-Key': localOnly } })).status, 200);
    assertBouncerError(await t.remote(WHITELIST, { headers: { 'X-Api-Key': localOnly } }), 403);
    const dangling = createTestApiKey(t.server.services.db, { networkFilterId: '9999' }).key;
    assertBouncerError(await t.call(STREAM, { headers: { 'X-Api-Key': dangling } }), 403);
  });

  test('unknown paths under the export: 401 without a key, 404 with one; other verbs: 405', async () => {
    assertBouncerError(await t.call('/pbxcore/api/v3/firewall-bouncer/v1/alerts'), 401);
    assertBouncerError(
      await t.call('/pbxcore/api/v3/firewall-bouncer/v1/alerts', { headers: { 'X-Api-Key': good } }),
      404,
    );
    const writer = createTestApiKey(t.server.services.db, {
      allowedPaths: { '/api/v3/firewall-bouncer': 'write' },
    }).key;
    const response = await t.call(STREAM, { method: 'POST', headers: { 'X-Api-Key': writer }, body: {} });
    assertBouncerError(response, 405);
    assert.equal(response.headers.allow, 'GET, HEAD');
    // Every export endpoint is part of the read protocol: a read key learns the verb is wrong.
    assertBouncerError(await t.call(STREAM, { method: 'DELETE', headers: { 'X-Api-Key': good } }), 405);
  });
});

describe('bouncer export: HEAD and repeated bad credentials', () => {
  const t = useTestServer();

  test('HEAD answers like GET without a body on all three paths, and does not move the cursor', async () => {
    const { key } = createTestApiKey(t.server.services.db, { allowedPaths: BOUNCER_PATHS });
    banThroughFailures(t, 'sip', '10.40.0.1');
    await poll(t, key);
    await t.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '10.40.0.1' } });
    for (const path of PATHS) {
      const head = await t.call(path, { method: 'HEAD', headers: { 'X-Api-Key': key } });
      assert.equal(head.status, 200, path);
      assert.equal(head.text, '');
      assert.match(String(head.headers['content-type']), /application\/json/);
      assert.ok(Number(head.headers['content-length']) >= 2);
    }
    assert.equal((await t.call(STREAM, { method: 'HEAD' })).status, 401);
    const get = await poll(t, key);
    assert.deepEqual(
      get.deleted.map((d) => d.value),
      ['10.40.0.1'],
      'HEAD left the deletion for the next GET',
    );
    const decisions = await t.call(DECISIONS, { headers: { 'X-Api-Key': key } });
    // Nothing active: the LAPI answers null, never an empty list (a live bouncer reads null as "no decision").
    assert.deepEqual(get.new, []);
    assert.equal(decisions.text, 'null');
  });

  test('repeated invalid keys from one address end in an http ban: 403 on every route but the export with a valid key', async () => {
    assert.equal((await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { maxretry: 3 } })).status, 200);
    for (let i = 0; i < 3; i++)
      assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': 'c'.repeat(64) } })).status, 401);
    const banned = await t.remote('/pbxcore/api/v3/system:ping');
    assert.equal(banned.status, 403);
    assert.equal(banned.json.result, false);
    assert.equal(
      (await t.remote(STREAM, { headers: { 'X-Api-Key': 'c'.repeat(64) } })).status,
      403,
      'a wrong key from a banned source: banned',
    );
    const bans = await t.call('/pbxcore/api/v3/firewall:getBannedIps');
    assert.deepEqual(
      bans.json.data.map((b: { ip: string; category: string }) => [b.ip, b.category]),
      [[REMOTE, 'http']],
    );
    const status = await t.call('/pbxcore/api/v3/firewall:getBouncerStatus');
    const refused = status.json.data.rejections.find((r: { ip: string }) => r.ip === REMOTE);
    assert.ok(refused && refused.banned === true && refused.count >= 4, JSON.stringify(status.json.data.rejections));
    // The bouncer's key fixed: served at its next poll, and the ban its wrong key earned is lifted.
    const { key } = createTestApiKey(t.server.services.db);
    assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': key } })).status, 200, 'a valid key is served');
    assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 200, 'the http ban is lifted');
    assert.deepEqual((await t.call('/pbxcore/api/v3/firewall:getBannedIps')).json.data, []);
    const cleared = (await t.call('/pbxcore/api/v3/firewall:getBouncerStatus')).json.data.rejections.find(
      (r: { ip: string }) => r.ip === REMOTE,
    );
    assert.ok(cleared === undefined || cleared.clearedAt !== null, JSON.stringify(cleared));
    for (let i = 0; i < 3; i++)
      assert.equal((await t.remote(STREAM, { headers: { 'X-Api-Key': 'c'.repeat(64) } })).status, 401);
    // Loopback (the host itself) is never banned.
    for (let i = 0; i < 5; i++)
      assert.equal((await t.call(STREAM, { headers: { 'X-Api-Key': 'c'.repeat(64) } })).status, 401);
    assert.equal((await t.call('/pbxcore/api/v3/system:ping')).status, 200);
    assert.equal(
      (await t.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: REMOTE } })).status,
      200,
    );
    assert.equal(
      (await t.remote('/pbxcore/api/v3/firewall-bouncer/v1/whitelist', { headers: { 'X-Api-Key': key } })).status,
      200,
    );
  });

  test(
    'a valid bouncer key does not lift an http ban earned by failed logins: the bouncer is ' +
      'served, the address stays banned',
    async () => {
      assert.equal((await t.call('/pbxcore/api/v3/fail2ban', { method: 'PATCH', body: { maxretry: 3 } })).status, 200);
      for (let i = 0; i < 3; i++) {
        const login = await t.remote('/pbxcore/api/v3/auth:login', {
          method: 'POST',
          body: { login: 'admin', password: `guess ${i}` },
        });
        assert.ok(login.status === 401 || login.status === 429, login.text);
      }
      assert.equal((await t.remote('/pbxcore/api/v3/system:ping')).status, 403, 'banned by the failed logins');
      const { key } = createTestApiKey(t.server.services.db);
      assert.equal(
        (await t.remote(STREAM, { headers: { 'X-Api-Key': key } })).status,
        200,
        'the export still serves a valid key',
      );
      assert.equal(
        (await t.remote('/pbxcore/api/v3/system:ping')).status,
        403,
        'the password-guessing ban is not lifted by a bouncer key',
      );
      const [ban] = (await t.call('/pbxcore/api/v3/firewall:getBannedIps')).json.data;
      assert.equal(ban.category, 'http');
      assert.doesNotMatch(ban.reason, /^wrong API key/);
      assert.equal(
        (await t.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: REMOTE } })).status,
        200,
      );
    },
  );
});
