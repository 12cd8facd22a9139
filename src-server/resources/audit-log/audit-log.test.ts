import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { BOUNCER_PATHS, createTestApiKey } from '../../test-support/api-keys.ts';
import { STREAM } from '../../test-support/bouncer.ts';
import { ADMIN_PASSWORD, loginToken, sessionCookie, VIEWER_PASSWORD } from '../../test-support/credentials.ts';
import { REMOTE, startTestServer, type TestServer } from '../../test-support/server.ts';
import { waitUntil } from '../../test-support/wait.ts';
import { setUserPassword } from '../../auth/users.ts';
import { MASKED } from '../../audit/diff.ts';
import { REJECTION_WINDOW_MS, type AuditEntry } from '../../audit/store.ts';
import { ManualClock } from '../../clock.ts';

const V3 = '/pbxcore/api/v3';
const AUDIT = `${V3}/audit-log`;

/** An entry as the API answers it: the store's shape. */
type Entry = AuditEntry;

describe('audit log over HTTP', () => {
  let t: TestServer;
  let adminToken: string;

  /** The newest entries matching `query` (rejections are written in batches: flushed first). */
  const entries = async (query = ''): Promise<Entry[]> => {
    t.server.services.audit.flush();
    const answer = await t.call(`${AUDIT}${query ? `?${query}` : ''}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.data as Entry[];
  };
  const change = (entry: Entry, field: string) => entry.diff.find((c) => c.field === field);

  before(async () => {
    t = await startTestServer({ adminPassword: ADMIN_PASSWORD });
    adminToken = await loginToken(t, 'admin', ADMIN_PASSWORD);
  });
  after(() => t.close());

  it('a localhost write: channel localhost, address 127.0.0.1, before → after, the AMI secret masked', async () => {
    const answer = await t.call(`${V3}/ami`, {
      method: 'PATCH',
      body: { username: 'console', secret: 'hunter2-ami-secret' },
    });
    assert.equal(answer.status, 200, answer.text);
    const [entry] = await entries('resource=ami');
    assert.ok(entry);
    const { kind, channel, actor, address, operation, verb, status } = entry;
    assert.deepEqual(
      { kind, channel, actor, address, operation, verb, status },
      {
        kind: 'write',
        channel: 'localhost',
        actor: 'localhost',
        address: '127.0.0.1',
        operation: 'patch',
        verb: 'PATCH',
        status: 200,
      },
    );
    assert.deepEqual(change(entry, 'username'), { field: 'username', before: '', after: 'console' });
    assert.deepEqual(change(entry, 'secret'), { field: 'secret', after: MASKED });
    assert.ok(!change(entry, 'port'), 'unchanged fields are left out');
    const raw = (await t.call(`${AUDIT}/${entry.id}`)).text;
    assert.ok(!raw.includes('hunter2-ami-secret'), 'the secret is never stored or answered');
    assert.ok(
      !(
        t.server.services.db.prepare('SELECT group_concat(diff) AS d FROM audit_log').get() as { d: string }
      ).d.includes('hunter2'),
    );
  });

  it('an API key created (key generated, then one chosen) never leaves its value in the log', async () => {
    const generated = await t.call(`${V3}/api-keys`, {
      method: 'POST',
      body: { description: 'audited key', allowed_paths: { '/api/v3/fail2ban': 'read' } },
    });
    assert.equal(generated.status, 201, generated.text);
    const chosen = randomBytes(32).toString('hex');
    const patched = await t.call(`${V3}/api-keys/${generated.json.data.id}`, {
      method: 'PATCH',
      body: { description: 'audited key', key: chosen },
    });
    assert.equal(patched.status, 200, patched.text);
    const [patch, create] = await entries('resource=api-keys');
    assert.equal(create!.operation, 'create');
    assert.deepEqual(change(create!, 'description'), { field: 'description', after: 'audited key' });
    assert.deepEqual(change(patch!, 'key'), { field: 'key', after: MASKED });
    const stored = JSON.stringify(t.server.services.db.prepare('SELECT * FROM audit_log').all());
    assert.ok(!stored.includes(generated.json.data.key as string), 'the generated key is not stored');
    assert.ok(!stored.includes(chosen), 'the chosen key is not stored');
  });

  it('a JWT write from a remote address: channel jwt, the user, the created fields and the new id', async () => {
    const answer = await t.remote(`${V3}/firewall`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
      body: { network: '192.0.2.0', subnet: '24', description: 'office' },
    });
    assert.equal(answer.status, 201, answer.text);
    const [entry] = await entries('resource=firewall&channel=jwt');
    assert.ok(entry);
    assert.equal(entry.actor, 'admin');
    assert.equal(entry.address, REMOTE);
    assert.equal(entry.operation, 'create');
    assert.equal(entry.status, 201);
    assert.equal(entry.recordId, String(answer.json.data.id));
    assert.deepEqual(change(entry, 'permit'), { field: 'permit', after: '192.0.2.0/24' });
    assert.deepEqual(change(entry, 'description'), { field: 'description', after: 'office' });

    const removed = await t.remote(`${V3}/firewall/${answer.json.data.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    assert.equal(removed.status, 200, removed.text);
    const [deletion] = await entries('resource=firewall&channel=jwt');
    assert.equal(deletion!.operation, 'delete');
    assert.deepEqual(change(deletion!, 'permit'), { field: 'permit', before: '192.0.2.0/24' });
  });

  it('a session-cookie write: channel session', async () => {
    const cookie = await sessionCookie(t);
    const answer = await t.remote(`${V3}/fail2ban`, {
      method: 'PATCH',
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
      body: { maxretry: 9 },
    });
    assert.equal(answer.status, 200, answer.text);
    const [entry] = await entries('channel=session');
    assert.equal(entry!.actor, 'admin');
    assert.equal(entry!.resource, 'fail2ban');
    assert.deepEqual(change(entry!, 'maxretry'), { field: 'maxretry', before: 20, after: 9 });
  });

  it(
    'an API key write: channel api_key, the key id and description, the address; a refused ' +
      'write is recorded with its status',
    async () => {
      const key = createTestApiKey(t.server.services.db, {
        description: 'fail2ban robot',
        allowedPaths: { '/api/v3/fail2ban': 'write' },
      });
      const answer = await t.remote(`${V3}/fail2ban`, {
        method: 'PATCH',
        headers: { 'x-api-key': key.key },
        body: { maxretry: 7 },
      });
      assert.equal(answer.status, 200, answer.text);
      const [entry] = await entries(`actor=key:${key.id}`);
      assert.ok(entry);
      assert.equal(entry.channel, 'api_key');
      assert.equal(entry.keyId, key.id);
      assert.equal(entry.keyDescription, 'fail2ban robot');
      assert.equal(entry.address, REMOTE);
      assert.deepEqual(change(entry, 'maxretry'), { field: 'maxretry', before: 9, after: 7 });

      const bad = await t.remote(`${V3}/fail2ban`, {
        method: 'PATCH',
        headers: { 'x-api-key': key.key },
        body: { maxretry: 0 },
      });
      assert.equal(bad.status, 422);
      const [refused] = await entries(`actor=${key.id}`);
      assert.equal(refused!.status, 422);
      assert.deepEqual(refused!.diff, []);
    },
  );

  it('rejected API key uses: an unknown key (401) and a key outside its allowed_paths (403), with the reason', async () => {
    const unknown = randomBytes(32).toString('hex');
    assert.equal((await t.remote(`${V3}/extensions`, { headers: { 'x-api-key': unknown } })).status, 401);
    const [rejected] = await entries('kind=rejected-key');
    assert.equal(rejected!.status, 401);
    assert.equal(rejected!.address, REMOTE);
    assert.match(rejected!.reason!, /unknown or revoked API key/);
    assert.equal(rejected!.path, `${V3}/extensions`);

    const key = createTestApiKey(t.server.services.db, {
      description: 'narrow',
      allowedPaths: { '/api/v3/fail2ban': 'read' },
    });
    assert.equal(
      (await t.remote(`${V3}/extensions`, { method: 'POST', headers: { 'x-api-key': key.key }, body: {} })).status,
      403,
    );
    const [forbidden] = await entries('kind=rejected-key');
    assert.equal(forbidden!.status, 403);
    assert.equal(forbidden!.keyId, key.id);
    assert.equal(forbidden!.keyDescription, 'narrow');
    assert.match(forbidden!.reason!, /allowed_paths/);

    const bound = createTestApiKey(t.server.services.db, {
      description: 'bound',
      allowedPaths: { '/api/v3/fail2ban': 'read' },
      networkFilterId: 'localhost',
    });
    assert.equal((await t.remote(`${V3}/fail2ban`, { headers: { 'x-api-key': bound.key } })).status, 403);
    const [wrongSource] = await entries('kind=rejected-key');
    assert.equal(wrongSource!.status, 403);
    assert.equal(wrongSource!.keyId, bound.id);
    assert.match(wrongSource!.reason!, /source address 127\.0\.0\.2 not permitted/);

    // The bouncer export shares the path: a key without the export's path is refused there too.
    assert.equal(
      (await t.remote(`${V3}/firewall-bouncer/v1/decisions/stream`, { headers: { 'x-api-key': key.key } })).status,
      403,
    );
    const [bouncer] = await entries('kind=rejected-key');
    assert.equal(bouncer!.keyId, key.id);
    assert.equal(bouncer!.path, `${V3}/firewall-bouncer/v1/decisions/stream`);
    assert.match(bouncer!.reason!, /not allowed to read/);

    // A disabled key is refused (401) without counting as a guess, and still recorded, with its id.
    t.server.services.db
      .prepare('UPDATE api_keys SET disabled_at = ? WHERE id = ?')
      .run(new Date().toISOString(), key.id);
    assert.equal((await t.remote(`${V3}/fail2ban`, { headers: { 'x-api-key': key.key } })).status, 401);
    const [disabled] = await entries('kind=rejected-key');
    assert.equal(disabled!.status, 401);
    assert.equal(disabled!.keyId, key.id);
    assert.equal(disabled!.reason, 'disabled API key');
    assert.equal((await entries(`kind=rejected-key&actor=key:${key.id}`)).length, 3);
    // A malformed X-Api-Key is a rejected key; a bad JWT is not a key (only a security failure).
    const before = (await entries('kind=rejected-key&limit=1000')).length;
    assert.equal((await t.remote(`${V3}/fail2ban`, { headers: { 'x-api-key': 'not-a-key' } })).status, 401);
    assert.equal((await t.remote(`${V3}/fail2ban`, { headers: { authorization: 'Bearer not.a.jwt' } })).status, 401);
    const after = await entries('kind=rejected-key&limit=1000');
    assert.equal(after.length, before + 1);
    assert.equal(after[0]!.reason, 'malformed API key');
  });

  it('failed logins (auth:login and session/start) are recorded with the login tried, never the password', async () => {
    assert.equal(
      (await t.remote(`${V3}/auth:login`, { method: 'POST', body: { login: 'admin', password: 'wrong password 1' } }))
        .status,
      401,
    );
    const legacy = await t.remote('/admin-cabinet/session/start', {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'login=operator&password=wrong%20password%202',
    });
    assert.equal(legacy.status, 401);
    const [second, first] = await entries('kind=failed-login');
    assert.equal(first!.actor, 'admin');
    assert.equal(first!.path, `${V3}/auth:login`);
    assert.equal(second!.actor, 'operator');
    assert.equal(second!.path, '/admin-cabinet/session/start');
    assert.equal(second!.address, REMOTE);
    assert.equal(second!.status, 401);
    assert.ok(!JSON.stringify(await entries()).includes('wrong password'));
  });

  it('filters: search, resource, channel, since/until; pagination; bad values get 422', async () => {
    const found = await entries('search=fail2ban%20robot');
    assert.ok(found.length >= 1 && found.every((e) => e.keyDescription === 'fail2ban robot'));
    const future = new Date(Date.now() + 3_600_000).toISOString();
    assert.deepEqual(await entries(`since=${encodeURIComponent(future)}`), []);
    assert.ok((await entries(`until=${Date.now() + 1000}`)).length > 0);
    const page = await t.call(`${AUDIT}?limit=2&offset=1`);
    assert.equal(page.json.data.length, 2);
    assert.equal(page.json.pagination.limit, 2);
    assert.equal(page.json.pagination.hasMore, true);
    for (const query of [
      'kind=bogus',
      'channel=carrier-pigeon',
      'since=yesterday',
      'until=2026-13-45',
      'limit=-1',
      'since=2030-01-01&until=2020-01-01',
    ]) {
      const answer = await t.call(`${AUDIT}?${query}`);
      assert.equal(answer.status, 422, `${query}: ${answer.text}`);
    }
  });

  it('read access: ADMIN; a viewer, or a key without a path to it, gets 403; a key with the path reads it', async () => {
    await setUserPassword(t.server.services.db, 'viewer', VIEWER_PASSWORD, 'viewer');
    const viewer = await loginToken(t, 'viewer', VIEWER_PASSWORD);
    assert.equal((await t.remote(AUDIT, { headers: { authorization: `Bearer ${viewer}` } })).status, 403);
    const other = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/fail2ban': 'write' } });
    assert.equal((await t.remote(AUDIT, { headers: { 'x-api-key': other.key } })).status, 403);
    const auditor = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/audit-log': 'write' } });
    assert.equal((await t.remote(AUDIT, { headers: { 'x-api-key': auditor.key } })).status, 200);
    assert.equal(
      (await t.remote(AUDIT, { method: 'POST', headers: { 'x-api-key': auditor.key }, body: {} })).status,
      405,
    );
  });

  it('retention: auditRetentionDays (1-3650, default 90) prunes older entries', async () => {
    assert.equal((await t.call(`${V3}/general-settings`)).json.data.auditRetentionDays, 90);
    assert.equal(
      (await t.call(`${V3}/general-settings`, { method: 'PATCH', body: { auditRetentionDays: 0 } })).status,
      422,
    );
    const { db, audit } = t.server.services;
    const day = 86_400_000;
    const insert = db.prepare(
      "INSERT INTO audit_log (at, kind, address, status) VALUES (?, 'write', '192.0.2.1', 200)",
    );
    const old = Number(insert.run(Date.now() - 10 * day).lastInsertRowid);
    const recent = Number(insert.run(Date.now() - 3 * day).lastInsertRowid);
    assert.equal(audit.prune(), 0, 'nothing is older than 90 days');
    assert.equal(
      (await t.call(`${V3}/general-settings`, { method: 'PATCH', body: { auditRetentionDays: 5 } })).status,
      200,
    );
    assert.equal(audit.prune(), 1);
    assert.equal((await t.call(`${AUDIT}/${old}`)).status, 404);
    assert.equal((await t.call(`${AUDIT}/${recent}`)).status, 200);
  });

  it('is in the OpenAPI document with its filters and the count and last time of repeated rejections', async () => {
    const doc = (await t.call(`${V3}/openapi:getSpecification`)).json.data;
    const list = doc.paths['/pbxcore/api/v3/audit-log'].get;
    const names = (list.parameters as Array<{ name?: string }>).map((p) => p.name).filter(Boolean);
    for (const name of ['search', 'actor', 'resource', 'channel', 'kind', 'since', 'until'])
      assert.ok(names.includes(name), name);
    const fields = doc.components.schemas.AuditLog.properties as Record<
      string,
      { type?: string; description?: string; readOnly?: boolean }
    >;
    assert.equal(fields.count!.type, 'integer');
    assert.match(fields.count!.description!, /identical rejections/);
    assert.match(fields.lastAt!.description!, /last of those rejections/);
    assert.equal(fields.lastAt!.readOnly, true);
  });

  it('a write is one entry: count 1, lastAt equal to at', async () => {
    const [entry] = await entries('kind=write&limit=1');
    assert.equal(entry!.count, 1);
    assert.equal(entry!.lastAt, entry!.at);
  });
});

describe('audit log: repeated rejections share one entry (count, first and last time)', () => {
  let t: TestServer;
  let clock: ManualClock;
  const FIRST = '127.0.0.3';
  const SECOND = '127.0.0.4';
  const ATTACKER = '127.0.0.5';

  /** Entries as the API answers them, without flushing first (the recorder's own timer writes them). */
  const listed = async (query: string): Promise<Entry[]> => {
    const answer = await t.call(`${AUDIT}?${query}`);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.data as Entry[];
  };
  const entries = (query: string) => {
    t.server.services.audit.flush();
    return listed(query);
  };
  const poll = (key: string, from: string) => t.remote(STREAM, { localAddress: from, headers: { 'x-api-key': key } });

  before(async () => {
    // The queue stamps jobs with this clock and workers compare with Date.now(): it only moves forward.
    clock = new ManualClock(Date.now());
    t = await startTestServer({ adminPassword: ADMIN_PASSWORD, clock });
    // The burst below is 30 failed logins: keep the address unbanned to see all of them.
    assert.equal((await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { maxretry: 100 } })).status, 200);
  });
  after(() => t.close());

  it(
    'a bouncer polling with a disabled key: the first poll is listed at the next flush, before its window closes, ' +
      '1,000 polls are one entry of count 1,000',
    async () => {
      const key = createTestApiKey(t.server.services.db, { description: 'old bouncer', allowedPaths: BOUNCER_PATHS });
      t.server.services.db
        .prepare('UPDATE api_keys SET disabled_at = ? WHERE id = ?')
        .run(new Date().toISOString(), key.id);
      const query = `kind=rejected-key&actor=key:${key.id}`;

      assert.equal((await poll(key.key, FIRST)).status, 401);
      // Listed by the next flush (a timer of FLUSH_MS) while the server's clock stands still: the
      // entry does not wait for its aggregation window to close. The deadline only ends a test that
      // would never pass (a loaded machine may run the flush late).
      const [first] = await waitUntil('the first rejection listed', async () => {
        const found = await listed(query);
        return found.length ? found : undefined;
      });
      assert.ok(first, 'the first rejection is listed without waiting for a window');
      assert.equal(first.count, 1);
      assert.equal(first.reason, 'disabled API key');

      // 999 more polls, one every 0.5 s of server time (the whole run spans just under the window).
      for (let i = 1; i < 1000; i++) {
        clock.advance(500);
        assert.equal((await poll(key.key, FIRST)).status, 401);
      }
      const rows = await entries(query);
      assert.equal(rows.length, 1, JSON.stringify(rows.map((e) => e.count)));
      const [row] = rows;
      assert.equal(row!.id, first.id);
      assert.equal(row!.count, 1000);
      assert.equal(row!.at, first.at);
      assert.equal(Date.parse(row!.lastAt) - Date.parse(row!.at), 999 * 500);
      assert.equal(row!.keyDescription, 'old bouncer');
      assert.equal(row!.address, FIRST);
      assert.equal(row!.path, STREAM);
      assert.deepEqual(await t.call(`${AUDIT}/${row!.id}`).then((r) => [r.json.data.count, r.json.data.lastAt]), [
        1000,
        row!.lastAt,
      ]);

      // A window after the first poll, the next one starts a new entry; the old one keeps its count.
      clock.advance(REJECTION_WINDOW_MS - 999 * 500);
      assert.equal((await poll(key.key, FIRST)).status, 401);
      const [next, old] = await entries(query);
      assert.equal(old!.id, row!.id);
      assert.equal(old!.count, 1000);
      assert.equal(next!.count, 1);
      assert.equal(Date.parse(next!.at), Date.parse(row!.at) + REJECTION_WINDOW_MS);
    },
  );

  it('two sources: two entries; a key bound to another network: its 403s are one entry per source', async () => {
    const key = createTestApiKey(t.server.services.db, { allowedPaths: BOUNCER_PATHS });
    t.server.services.db
      .prepare('UPDATE api_keys SET disabled_at = ? WHERE id = ?')
      .run(new Date().toISOString(), key.id);
    const bound = createTestApiKey(t.server.services.db, { allowedPaths: BOUNCER_PATHS, networkFilterId: 'localhost' });
    for (let i = 0; i < 20; i++) {
      clock.advance(5_000);
      for (const from of [FIRST, SECOND]) assert.equal((await poll(key.key, from)).status, 401);
      assert.equal((await poll(bound.key, SECOND)).status, 403);
    }
    const disabled = await entries(`kind=rejected-key&actor=key:${key.id}`);
    assert.deepEqual(disabled.map((e) => [e.address, e.count]).sort(), [
      [FIRST, 20],
      [SECOND, 20],
    ]);
    const [outside, ...more] = await entries(`kind=rejected-key&actor=key:${bound.id}`);
    assert.deepEqual(more, []);
    assert.equal(outside!.status, 403);
    assert.equal(outside!.count, 20);
    assert.match(outside!.reason!, /source address 127\.0\.0\.4 not permitted/);
  });

  it('a failed-login burst: one entry per outcome with its count and its first and last time', async () => {
    const started = clock.now();
    for (let i = 0; i < 30; i++) {
      const answer = await t.remote(`${V3}/auth:login`, {
        localAddress: ATTACKER,
        method: 'POST',
        body: { login: 'admin', password: `guess ${i}` },
      });
      assert.equal(answer.status, i < 10 ? 401 : 429, answer.text);
      clock.advance(1_000);
    }
    const [limited, failed, ...more] = await entries('kind=failed-login&search=127.0.0.5');
    assert.deepEqual(more, []);
    assert.equal(failed!.actor, 'admin');
    assert.equal(failed!.reason, 'failed login');
    assert.equal(failed!.count, 10);
    assert.equal(Date.parse(failed!.at), started);
    assert.equal(Date.parse(failed!.lastAt), started + 9_000);
    assert.equal(limited!.status, 429);
    assert.equal(limited!.count, 20);
    assert.equal(Date.parse(limited!.at), started + 10_000);
    assert.equal(Date.parse(limited!.lastAt), started + 29_000);
    // since/until see an entry when any of its attempts is in range.
    assert.equal((await entries(`kind=failed-login&search=127.0.0.5&since=${started + 29_000}`)).length, 1);
    assert.equal((await entries(`kind=failed-login&search=127.0.0.5&until=${started}`)).length, 1);
    assert.ok(!JSON.stringify(await entries('kind=failed-login')).includes('guess'));
  });
});

describe('audit log: module resources are recorded like core ones, with no code of their own', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ exampleModules: true });
  });
  after(() => t.close());

  it('a v3 module create, patch, custom method and delete, and a v2 module POST', async () => {
    const TASKS = `${V3}/module-example-tasks/tasks`;
    const created = await t.call(TASKS, { method: 'POST', body: { title: 'water the plants' } });
    assert.equal(created.status, 201, created.text);
    const id = String(created.json.data.id);
    assert.equal((await t.call(`${TASKS}/${id}`, { method: 'PATCH', body: { priority: 1 } })).status, 200);
    assert.equal((await t.call(`${TASKS}/${id}:complete`, { method: 'POST' })).status, 200);
    assert.equal((await t.call(`${TASKS}/${id}`, { method: 'DELETE' })).status, 200);
    assert.equal(
      (await t.call('/pbxcore/api/example-routes/sum', { method: 'POST', body: { values: [1, 2] } })).status,
      200,
    );

    const log = (await t.call(`${AUDIT}?kind=write`)).json.data as Entry[];
    const tasks = log.filter((e) => e.resource === 'module-example-tasks/tasks').reverse();
    assert.deepEqual(
      tasks.map((e) => [e.operation, e.recordId]),
      [
        ['create', id],
        ['patch', id],
        ['complete', id],
        ['delete', id],
      ],
    );
    assert.deepEqual(
      tasks[0]!.diff.find((c) => c.field === 'title'),
      { field: 'title', after: 'water the plants' },
    );
    const patch = tasks[1]!.diff.find((c) => c.field === 'priority');
    assert.equal(patch!.after, 1);
    assert.ok('before' in patch!);
    assert.deepEqual(
      tasks[3]!.diff.find((c) => c.field === 'title'),
      { field: 'title', before: 'water the plants' },
    );
    const v2 = log.find((e) => e.resource?.startsWith('module-v2:'));
    assert.ok(v2, JSON.stringify(log.map((e) => e.resource)));
    assert.equal(v2.verb, 'POST');
    assert.deepEqual(v2.diff, [{ field: 'values', after: [1, 2] }]);
  });
});
