import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createTestApiKey } from '../../test-support/api-keys.ts';
import { useTestServer } from '../../test-support/server.ts';

const BASE = '/pbxcore/api/v3/api-keys';

const t = useTestServer();

test('create without a key generates one, shows it once, and never reads it back', async () => {
  const made = await t.call(BASE, {
    method: 'POST',
    body: { description: 'bouncer', allowed_paths: { '/pbxcore/api/v3/firewall-bouncer/': 'read' } },
  });
  assert.equal(made.status, 201);
  const key = made.json.data.key as string;
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.equal(made.json.data.key_display, `${key.slice(0, 4)}...${key.slice(-4)}`);
  assert.equal(made.json.data.has_key, true);
  assert.deepEqual(
    made.json.data.allowed_paths,
    { '/api/v3/firewall-bouncer': 'read' },
    'prefixes are stored normalised',
  );
  assert.equal(made.json.data.networkfilterid, 'none');
  assert.equal(made.json.data.full_permissions, false);
  assert.equal('key_hash' in made.json.data, false);

  const id = made.json.data.id as number;
  for (const path of [BASE, `${BASE}/${id}`]) {
    const read = await t.call(path);
    assert.equal(read.status, 200);
    assert.equal(read.text.includes(key), false, `${path} must not contain the key`);
    assert.equal(read.text.includes('key_hash'), false);
  }
  const patched = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'bouncer 2' } });
  assert.equal(patched.status, 200);
  assert.equal(patched.json.data.description, 'bouncer 2');
  assert.equal(patched.text.includes(key), false);
});

test('a given key is accepted once and never echoed back; the same key again is a 409', async () => {
  const key = randomBytes(32).toString('hex');
  const first = await t.call(BASE, { method: 'POST', body: { description: 'given', key } });
  assert.equal(first.status, 201);
  assert.equal('key' in first.json.data, false, 'the client chose the key: the answer does not repeat it');
  assert.equal(first.text.includes(key), false);
  assert.equal(first.json.data.key_display, `${key.slice(0, 4)}...${key.slice(-4)}`);
  const works = await t.remote('/pbxcore/api/v3/api-keys', { headers: { 'x-api-key': key } });
  assert.equal(works.status, 403, 'the given key is the stored one (valid, but allowed nowhere)');
  const again = await t.call(BASE, { method: 'POST', body: { description: 'given twice', key: key.toUpperCase() } });
  assert.equal(again.status, 409);
  assert.equal(again.json.result, false);
});

test('weak client-chosen keys get 422 with the reason, on create and on edit', async () => {
  const weak: Record<string, RegExp> = {
    ['0'.repeat(64)]: /one character repeated/,
    ['ab'.repeat(32)]: /repeats a pattern of 2/,
    ['0123456789abcdef'.repeat(4)]: /repeats a pattern of 16/,
    ['deadbeef'.repeat(8)]: /repeats a pattern of 8/,
    ['0123456789' + randomBytes(27).toString('hex')]: /run of \d+ repeated or consecutive/,
    ['fedcba9876543210' + randomBytes(24).toString('hex')]: /run of 16/,
    ['01234567'.repeat(3) + '76543210'.repeat(5)]: /different hex digits/,
    ['0'.repeat(40) + randomBytes(12).toString('hex')]: /different hex digits|run of 4\d/,
  };
  for (const [key, reason] of Object.entries(weak)) {
    const answer = await t.call(BASE, { method: 'POST', body: { description: 'weak', key } });
    assert.equal(answer.status, 422, key);
    assert.match(answer.json.messages.error.join(' '), /^key: is too weak: /, key);
    assert.match(answer.json.messages.error.join(' '), reason, key);
  }
  const made = await t.call(BASE, { method: 'POST', body: { description: 'edit me' } });
  const patch = await t.call(`${BASE}/${made.json.data.id}`, {
    method: 'PATCH',
    body: { description: 'edit me', key: 'c'.repeat(64) },
  });
  assert.equal(patch.status, 422);
  assert.equal(
    (await t.call(BASE)).json.data.filter((k: { description: string }) => k.description === 'weak').length,
    0,
    'nothing was stored',
  );
});

test('description is required on every verb, PATCH included (422)', async () => {
  const missing = await t.call(BASE, { method: 'POST', body: { allowed_paths: {} } });
  assert.equal(missing.status, 422);
  assert.match(missing.json.messages.error.join(' '), /description is required/);
  const made = await t.call(BASE, { method: 'POST', body: { description: 'x' } });
  const id = made.json.data.id as number;
  const patch = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { full_permissions: true } });
  assert.equal(patch.status, 422);
  assert.match(patch.json.messages.error.join(' '), /description is required/);
  const put = await t.call(`${BASE}/${id}`, { method: 'PUT', body: { full_permissions: true } });
  assert.equal(put.status, 422);
});

test('bad input is a 422, a missing record a 404', async () => {
  for (const body of [
    { description: 'x', key: 'short' },
    { description: 'x', allowed_paths: { '/api/v3/x': 'admin' } },
    { description: 'x', allowed_paths: ['nope'] },
    { description: 'x', networkfilterid: '9999' },
    { description: 'x', networkfilterid: 'everywhere' },
  ]) {
    const answer = await t.call(BASE, { method: 'POST', body });
    assert.equal(answer.status, 422, JSON.stringify(body));
    assert.equal(answer.json.result, false);
  }
  const form = await t.call(BASE, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `description=form&allowed_paths=${encodeURIComponent('{"/api/v3/extensions":"write"}')}&full_permissions=0`,
  });
  assert.equal(form.status, 201);
  assert.deepEqual(form.json.data.allowed_paths, { '/api/v3/extensions': 'write' });
  for (const method of ['GET', 'PATCH', 'PUT', 'DELETE']) {
    const answer = await t.call(`${BASE}/424242`, {
      method,
      body: method === 'GET' ? undefined : { description: 'x' },
    });
    assert.equal(answer.status, 404, method);
    assert.equal(answer.json.httpCode, 404);
  }
});

test('generateKey returns a fresh 64-hex key; getDefault the defaults', async () => {
  const a = await t.call(`${BASE}:generateKey`);
  const b = await t.call(`${BASE}:generateKey`, { method: 'POST' });
  assert.match(a.json.data.key, /^[0-9a-f]{64}$/);
  assert.notEqual(a.json.data.key, b.json.data.key);
  const defaults = await t.call(`${BASE}:getDefault`);
  assert.deepEqual(defaults.json.data, {
    description: '',
    allowed_paths: {},
    full_permissions: false,
    networkfilterid: 'none',
    expand_ranges: false,
    entry_cap: null,
    cap_preset: 'none',
    aggregate: false,
    feed_interval_minutes: 5,
    enabled: true,
    expires_at: null,
    has_key: false,
  });
});

test('a deleted key fails on the very next request', async () => {
  const made = await t.call(BASE, { method: 'POST', body: { description: 'revoke me', full_permissions: true } });
  const key = made.json.data.key as string;
  const before = await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } });
  assert.equal(before.status, 200);
  const deleted = await t.call(`${BASE}/${made.json.data.id}`, { method: 'DELETE' });
  assert.equal(deleted.status, 200);
  const afterDelete = await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } });
  assert.equal(afterDelete.status, 401);
  assert.equal(afterDelete.json.result, false);
});

test('the key is used through Authorization or X-Api-Key, and records its last use', async () => {
  const made = await t.call(BASE, {
    method: 'POST',
    body: { description: 'reader', allowed_paths: { '/api/v3/extensions': 'read' } },
  });
  const key = made.json.data.key as string;
  assert.equal(
    (await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: `Bearer ${key}` } })).status,
    200,
  );
  assert.equal((await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } })).status, 200);
  // Authorization wins when both are present: a bad Authorization fails even with a good X-Api-Key.
  assert.equal(
    (await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: 'Bearer None', 'x-api-key': key } }))
      .status,
    401,
  );
  assert.equal(
    (await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: `Bearer ${key}`, 'x-api-key': 'junk' } }))
      .status,
    200,
  );
  assert.equal(
    (await t.remote('/pbxcore/api/v3/extensions', { method: 'POST', headers: { 'x-api-key': key }, body: {} })).status,
    403,
  );
  assert.equal((await t.remote('/pbxcore/api/v3/providers', { headers: { 'x-api-key': key } })).status, 403);
  const record = await t.call(`${BASE}/${made.json.data.id}`);
  assert.equal(record.json.data.last_used_ip, '127.0.0.2');
  assert.ok(Date.parse(record.json.data.last_used_at) > Date.now() - 60_000);
});

describe('a key with write on api-keys stays within its own grants', () => {
  const send = (key: string, method: string, path: string, body?: unknown) =>
    t.remote(path, { method, headers: { 'x-api-key': key }, body });
  const count = () => (t.server.services.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;

  test('no full_permissions, no path beyond its own, no broader prefix that covers a narrower limit: 403 naming it', async () => {
    const db = t.server.services.db;
    const caller = createTestApiKey(db, {
      allowedPaths: { '/api/v3/api-keys': 'write', '/api/v3/extensions': 'read', '/api/v3/providers': 'write' },
    }).key;
    const before = count();
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ full_permissions: true }, /full_permissions exceeds your grants/],
      [
        { allowed_paths: { '/api/v3/extensions': 'write' } },
        /"\/api\/v3\/extensions": "write" exceeds your grants \(yours: read\)/,
      ],
      [
        { allowed_paths: { '/api/v3/firewall-bouncer': 'read' } },
        /"\/api\/v3\/firewall-bouncer": "read" exceeds your grants \(yours: none\)/,
      ],
      [{ allowed_paths: { '/': 'read' } }, /"\/": "read" exceeds your grants/],
      [{ allowed_paths: { '/pbxcore/api/v3/providers/': 'write', '/api/v3/ami': 'write' } }, /"\/api\/v3\/ami"/],
    ];
    for (const [grant, message] of refused) {
      const answer = await send(caller, 'POST', BASE, { description: 'escalate', ...grant });
      assert.equal(answer.status, 403, JSON.stringify(grant));
      assert.equal(answer.json.result, false);
      assert.match(answer.json.messages.error.join(' '), message, JSON.stringify(grant));
    }
    assert.equal(count(), before, 'nothing was created');

    const within = await send(caller, 'POST', BASE, {
      description: 'within',
      allowed_paths: { '/api/v3/extensions': 'read', '/pbxcore/api/v3/providers': 'write' },
    });
    assert.equal(within.status, 201, within.text);
    assert.match(within.json.data.key, /^[0-9a-f]{64}$/, 'a generated key is shown once');

    // A broad prefix would override the caller's narrower limit underneath it.
    const layered = createTestApiKey(db, {
      allowedPaths: { '/api/v3': 'write', '/api/v3/firewall-bouncer': 'read' },
    }).key;
    const broad = await send(layered, 'POST', BASE, { description: 'broad', allowed_paths: { '/api/v3': 'write' } });
    assert.equal(broad.status, 403);
    assert.match(broad.json.messages.error.join(' '), /would give "write" on \/api\/v3\/firewall-bouncer/);
    const same = await send(layered, 'POST', BASE, {
      description: 'same',
      allowed_paths: { '/api/v3': 'write', '/api/v3/firewall-bouncer': 'read' },
    });
    assert.equal(same.status, 201, same.text);
  });

  test('editing may not raise a key above the caller, nor touch a stronger key (its key value included)', async () => {
    const db = t.server.services.db;
    const caller = createTestApiKey(db, { allowedPaths: { '/api/v3/api-keys': 'write' } });
    const raiseSelf = await send(caller.key, 'PATCH', `${BASE}/${caller.id}`, {
      description: 'me',
      full_permissions: true,
    });
    assert.equal(raiseSelf.status, 403);
    const widenSelf = await send(caller.key, 'PUT', `${BASE}/${caller.id}`, {
      description: 'me',
      allowed_paths: { '/api/v3/api-keys': 'write', '/api/v3/ami': 'write' },
    });
    assert.equal(widenSelf.status, 403);
    assert.match(widenSelf.json.messages.error.join(' '), /\/api\/v3\/ami/);

    const strong = createTestApiKey(db, { fullPermissions: true });
    const chosen = randomBytes(32).toString('hex');
    const hijack = await send(caller.key, 'PATCH', `${BASE}/${strong.id}`, { description: 'mine now', key: chosen });
    assert.equal(hijack.status, 403);
    assert.equal(
      (await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': chosen } })).status,
      401,
      'the chosen value was not stored',
    );
    assert.equal(
      (await t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': strong.key } })).status,
      200,
      'the strong key is unchanged',
    );

    const narrowSelf = await send(caller.key, 'PATCH', `${BASE}/${caller.id}`, { description: 'renamed, same grants' });
    assert.equal(narrowSelf.status, 200, narrowSelf.text);
  });

  test('a bound caller keeps its binding; callers with full permissions may give anything', async () => {
    const db = t.server.services.db;
    const filter = Number(
      db.prepare("INSERT INTO network_filters (permit, description) VALUES ('127.0.0.0/8', 'loopback')").run()
        .lastInsertRowid,
    );
    const bound = createTestApiKey(db, {
      allowedPaths: { '/api/v3/api-keys': 'write' },
      networkFilterId: String(filter),
    });
    const unbound = await send(bound.key, 'POST', BASE, {
      description: 'anywhere',
      allowed_paths: { '/api/v3/api-keys': 'read' },
    });
    assert.equal(unbound.status, 403);
    assert.match(
      unbound.json.messages.error.join(' '),
      new RegExp(`networkfilterid "none" exceeds your grants: your key is bound to "${filter}"`),
    );
    const kept = await send(bound.key, 'POST', BASE, {
      description: 'same place',
      allowed_paths: { '/api/v3/api-keys': 'read' },
      networkfilterid: String(filter),
    });
    assert.equal(kept.status, 201, kept.text);

    const full = createTestApiKey(db, { fullPermissions: true }).key;
    assert.equal(
      (await send(full, 'POST', BASE, { description: 'full from full', full_permissions: true })).status,
      201,
    );
    assert.equal(
      (await t.call(BASE, { method: 'POST', body: { description: 'full from localhost', full_permissions: true } }))
        .status,
      201,
    );
  });
});

describe('key lifecycle: disable, enable, expiry, rotate, last use per address', () => {
  const STREAM = '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream';
  const v3 = (key: string) => t.remote('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': key } });
  const stream = (key: string, startup = false) =>
    t.remote(`${STREAM}${startup ? '?startup=true' : ''}`, { headers: { 'x-api-key': key } });
  const makeKey = async (body: Record<string, unknown>) => {
    const made = await t.call(BASE, { method: 'POST', body });
    assert.equal(made.status, 201, made.text);
    return {
      id: made.json.data.id as number,
      key: made.json.data.key as string,
      record: made.json.data as Record<string, unknown>,
    };
  };

  test('a new key is enabled, active and never expires', async () => {
    const { record } = await makeKey({ description: 'fresh' });
    assert.equal(record.enabled, true);
    assert.equal(record.status, 'active');
    assert.equal(record.expires_at, null);
    assert.equal(record.disabled_at, null);
    assert.deepEqual(record.sources, []);
  });

  test('a disabled key gets 401 "this API key is disabled" on v3 and on the bouncer export; enabling restores it', async () => {
    const full = await makeKey({ description: 'script', full_permissions: true });
    const bouncer = await makeKey({ description: 'bouncer', allowed_paths: { '/api/v3/firewall-bouncer': 'read' } });
    assert.equal((await v3(full.key)).status, 200);
    assert.equal((await stream(bouncer.key, true)).status, 200);
    const failures: unknown[] = [];
    const unsubscribe = t.server.services.bus.on('security-failure', (event) => failures.push(event));
    try {
      for (const { id } of [full, bouncer]) {
        const off = await t.call(`${BASE}/${id}`, {
          method: 'PATCH',
          body: { description: 'disabled', enabled: false },
        });
        assert.equal(off.status, 200, off.text);
        assert.equal(off.json.data.enabled, false);
        assert.equal(off.json.data.status, 'disabled');
        assert.ok(Date.parse(off.json.data.disabled_at) > Date.now() - 60_000);
      }
      const refused = await v3(full.key);
      assert.equal(refused.status, 401);
      assert.match(refused.json.messages.error.join(' '), /this API key is disabled/i);
      // Every other channel that takes an API key: a legacy route, the events stream, Bearer.
      for (const path of ['/pbxcore/api/sip/getPeersStatuses', '/pbxcore/api/v3/events?channel=lifecycle']) {
        const other = await t.remote(path, { headers: { 'x-api-key': full.key } });
        assert.equal(other.status, 401, path);
        assert.match(other.text, /this API key is disabled/i, path);
      }
      assert.equal(
        (await t.remote('/pbxcore/api/v3/extensions', { headers: { authorization: `Bearer ${full.key}` } })).status,
        401,
      );
      for (const head of [{ 'x-api-key': bouncer.key }, { authorization: `Bearer ${bouncer.key}` }] as Array<
        Record<string, string>
      >) {
        const polled = await t.remote(STREAM, { headers: head });
        assert.equal(polled.status, 401);
        assert.match(polled.json.message, /this API key is disabled/i, 'bouncers print the top-level message');
      }
      assert.equal((await t.remote(STREAM, { method: 'HEAD', headers: { 'x-api-key': bouncer.key } })).status, 401);
      assert.deepEqual(failures, [], 'a disabled key is not counted as a guess (its bouncer host must not get banned)');
    } finally {
      unsubscribe();
    }
    // Disabling again keeps the first time; enabling clears it and the key works at once.
    const disabledAt = (await t.call(`${BASE}/${full.id}`)).json.data.disabled_at;
    await t.call(`${BASE}/${full.id}`, { method: 'PATCH', body: { description: 'disabled', enabled: false } });
    assert.equal((await t.call(`${BASE}/${full.id}`)).json.data.disabled_at, disabledAt);
    for (const { id } of [full, bouncer]) {
      const on = await t.call(`${BASE}/${id}`, { method: 'PATCH', body: { description: 'enabled', enabled: true } });
      assert.equal(on.json.data.status, 'active');
      assert.equal(on.json.data.disabled_at, null);
    }
    assert.equal((await v3(full.key)).status, 200);
    assert.equal((await stream(bouncer.key)).status, 200);
  });

  test('expires_at: a past or malformed value is a 422; once it passes the key gets 401 "expired" everywhere', async () => {
    const past = await t.call(BASE, {
      method: 'POST',
      body: { description: 'past', expires_at: '2020-01-01T00:00:00Z' },
    });
    assert.equal(past.status, 422);
    assert.match(past.json.messages.error.join(' '), /expires_at: must be in the future/);
    const junk = await t.call(BASE, { method: 'POST', body: { description: 'junk', expires_at: 'next tuesday' } });
    assert.equal(junk.status, 422);
    assert.match(junk.json.messages.error.join(' '), /expires_at: must be an ISO 8601 date-time/);

    // An hour ahead: however slow the machine, the key is still active for the first calls.
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const full = await makeKey({ description: 'short-lived', full_permissions: true, expires_at: inAnHour });
    const bouncer = await makeKey({
      description: 'short-lived bouncer',
      allowed_paths: { '/api/v3/firewall-bouncer': 'read' },
      expires_at: inAnHour,
    });
    assert.equal(full.record.expires_at, inAnHour);
    assert.equal(full.record.status, 'active');
    assert.equal((await v3(full.key)).status, 200);
    assert.equal((await stream(bouncer.key, true)).status, 200);
    // Then the hour passes: the stored expiry is now a second ago (keys are read from the file at each call).
    const soon = new Date(Date.now() - 1000).toISOString();
    t.server.services.db
      .prepare('UPDATE api_keys SET expires_at = ? WHERE id IN (?, ?)')
      .run(soon, full.id, bouncer.id);
    const refused = await v3(full.key);
    assert.equal(refused.status, 401);
    assert.match(refused.json.messages.error.join(' '), /expired/);
    const polled = await stream(bouncer.key);
    assert.equal(polled.status, 401);
    assert.match(polled.json.message, /expired at/);
    assert.equal((await t.call(`${BASE}/${full.id}`)).json.data.status, 'expired');

    // Editing the expiry: a later date revives it, null means never; a PUT repeating the passed one is not re-checked.
    const put = await t.call(`${BASE}/${full.id}`, {
      method: 'PUT',
      body: { description: 'short-lived', full_permissions: true, expires_at: soon },
    });
    assert.equal(put.status, 200, put.text);
    const later = await t.call(`${BASE}/${full.id}`, {
      method: 'PATCH',
      body: { description: 'renewed', expires_at: new Date(Date.now() + 3_600_000).toISOString() },
    });
    assert.equal(later.json.data.status, 'active');
    assert.equal((await v3(full.key)).status, 200);
    const never = await t.call(`${BASE}/${bouncer.id}`, {
      method: 'PATCH',
      body: { description: 'forever', expires_at: null },
    });
    assert.equal(never.json.data.expires_at, null);
    assert.equal((await stream(bouncer.key)).status, 200);
  });

  test('PATCH edits description, binding and expiry, and still needs the description', async () => {
    const filter = Number(
      t.server.services.db
        .prepare("INSERT INTO network_filters (permit, description) VALUES ('127.0.0.2/32', 'remote')")
        .run().lastInsertRowid,
    );
    const made = await makeKey({ description: 'to edit', full_permissions: true });
    const expiry = new Date(Date.now() + 86_400_000).toISOString();
    const missing = await t.call(`${BASE}/${made.id}`, { method: 'PATCH', body: { networkfilterid: 'localhost' } });
    assert.equal(missing.status, 422);
    const edited = await t.call(`${BASE}/${made.id}`, {
      method: 'PATCH',
      body: { description: 'edited', networkfilterid: 'localhost', expires_at: expiry },
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.json.data.description, 'edited');
    assert.equal(edited.json.data.networkfilterid, 'localhost');
    assert.equal(edited.json.data.expires_at, expiry);
    assert.equal((await v3(made.key)).status, 403, 'bound to localhost: 127.0.0.2 is refused');
    await t.call(`${BASE}/${made.id}`, {
      method: 'PATCH',
      body: { description: 'edited', networkfilterid: String(filter) },
    });
    assert.equal((await v3(made.key)).status, 200, 'bound to a filter that permits 127.0.0.2');
  });

  test('rotate: a new value shown once; the old one is refused at once; id, grants, binding, state and cursor stay', async () => {
    const db = t.server.services.db;
    const blocked = await t.call('/pbxcore/api/v3/firewall', {
      method: 'POST',
      body: { permit: '198.51.100.0/24', deny: '198.51.100.0/24', description: 'rotate test' },
    });
    assert.equal(blocked.status, 201, blocked.text);
    const made = await makeKey({
      description: 'rotating bouncer',
      allowed_paths: { '/api/v3/firewall-bouncer': 'read' },
      expand_ranges: true,
    });
    const first = await stream(made.key, true);
    assert.equal(first.status, 200);
    assert.ok((first.json.new as Array<{ value: string }>).some((d) => d.value.startsWith('198.51.100.')));
    const cursorBefore = db.prepare('SELECT version, polls FROM bouncer_cursors WHERE key_id = ?').get(made.id) as {
      version: number;
      polls: number;
    };
    assert.ok(cursorBefore);

    const rotated = await t.call(`${BASE}/${made.id}:rotate`, { method: 'POST' });
    assert.equal(rotated.status, 200, rotated.text);
    const fresh = rotated.json.data.key as string;
    assert.match(fresh, /^[0-9a-f]{64}$/);
    assert.notEqual(fresh, made.key);
    assert.equal(rotated.json.data.id, made.id);
    assert.equal(rotated.json.data.key_display, `${fresh.slice(0, 4)}...${fresh.slice(-4)}`);
    assert.deepEqual(rotated.json.data.allowed_paths, { '/api/v3/firewall-bouncer': 'read' });
    assert.equal(rotated.json.data.expand_ranges, true);
    assert.ok(Date.parse(rotated.json.data.rotated_at) > Date.now() - 60_000);
    assert.equal((await t.call(`${BASE}/${made.id}`)).text.includes(fresh), false, 'never read back');

    const old = await stream(made.key);
    assert.equal(old.status, 401, 'the old value is refused at once');
    // The cursor stayed with the record: the block lifted after the rotation comes in `deleted`,
    // which only a key that was served it before gets.
    assert.equal((await t.call(`/pbxcore/api/v3/firewall/${blocked.json.data.id}`, { method: 'DELETE' })).status, 200);
    const lifted = (value: { deleted?: Array<{ value: string }> | null }) =>
      (value.deleted ?? []).filter((d) => d.value.startsWith('198.51.100.')).length;
    const control = await makeKey({
      description: 'control',
      allowed_paths: { '/api/v3/firewall-bouncer': 'read' },
      expand_ranges: true,
    });
    const next = await stream(fresh);
    assert.equal(next.status, 200);
    assert.equal(lifted(next.json), 256, 'the lifted /24 arrives in deleted for the rotated key');
    const cursorAfter = db.prepare('SELECT version, polls FROM bouncer_cursors WHERE key_id = ?').get(made.id) as {
      version: number;
      polls: number;
    };
    assert.equal(cursorAfter.polls, cursorBefore.polls + 1, 'the same cursor row counted the poll');
    assert.equal(lifted((await stream(control.key)).json), 0, 'control: a key with no cursor gets no deleted');

    // A disabled key stays disabled through a rotation; a missing record is a 404; GET is not a verb of rotate.
    await t.call(`${BASE}/${made.id}`, { method: 'PATCH', body: { description: 'rotating bouncer', enabled: false } });
    const again = await t.call(`${BASE}/${made.id}:rotate`, { method: 'POST' });
    assert.equal(again.json.data.status, 'disabled');
    assert.equal((await stream(again.json.data.key)).status, 401);
    assert.equal((await t.call(`${BASE}/424242:rotate`, { method: 'POST' })).status, 404);
    assert.equal((await t.call(`${BASE}/${made.id}:rotate`)).status, 405);
  });

  test('rotate needs the grants of editing that key', async () => {
    const db = t.server.services.db;
    const caller = createTestApiKey(db, {
      allowedPaths: { '/api/v3/api-keys': 'write', '/api/v3/firewall-bouncer': 'read' },
    });
    const reader = createTestApiKey(db, { allowedPaths: { '/api/v3/api-keys': 'read' } });
    const strong = createTestApiKey(db, { fullPermissions: true });
    const weak = createTestApiKey(db, { allowedPaths: { '/api/v3/firewall-bouncer': 'read' } });
    const rotate = (key: string, id: number) =>
      t.remote(`${BASE}/${id}:rotate`, { method: 'POST', headers: { 'x-api-key': key } });

    const refused = await rotate(caller.key, strong.id);
    assert.equal(refused.status, 403);
    assert.match(refused.json.messages.error.join(' '), /full_permissions exceeds your grants/);
    assert.equal((await v3(strong.key)).status, 200, 'the strong key still works');
    assert.equal((await rotate(reader.key, weak.id)).status, 403, 'read on api-keys is not enough');
    const allowed = await rotate(caller.key, weak.id);
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal((await stream(weak.key)).status, 401);
    assert.equal((await stream(allowed.json.data.key)).status, 200);
  });

  test('the key records its last use per source address', async () => {
    const made = await makeKey({ description: 'two hosts', full_permissions: true });
    assert.equal((await t.call('/pbxcore/api/v3/extensions', { headers: { 'x-api-key': made.key } })).status, 200);
    assert.equal((await v3(made.key)).status, 200);
    const record = (await t.call(`${BASE}/${made.id}`)).json.data;
    assert.deepEqual((record.sources as Array<{ ip: string }>).map((s) => s.ip).sort(), ['127.0.0.1', '127.0.0.2']);
    for (const source of record.sources as Array<{ last_used_at: string }>)
      assert.ok(Date.parse(source.last_used_at) > Date.now() - 60_000);
    const listed = (await t.call(BASE)).json.data.find((k: { id: number }) => k.id === made.id);
    assert.equal(listed.sources.length, 2);
  });
});
