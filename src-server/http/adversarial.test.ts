import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  BAD_IMPORT_IDS,
  BAD_RANGE_QUERIES,
  MISTYPED_IMPORTS,
  RANGE_QUERIES,
  RANGE_SPELLINGS,
  routesFromOpenApi,
  UNSPECIFIED_RANGES,
} from '../test-support/adversarial-corpus.ts';
import { bodyWithNestedSecrets, plantedSecret, privilegedRequests } from '../test-support/adversarial-security.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { STREAM } from '../test-support/bouncer.ts';
import { normalisePath } from '../auth/allowed-paths.ts';
import { MAX_LOGIN_FAILURES } from '../auth/login-limiter.ts';
import { setUserPassword } from '../auth/users.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { spawnServe } from '../test-support/cli.ts';
import { request } from '../test-support/http.ts';
import { REMOTE, startTestServer, type TestServer } from '../test-support/server.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

// The route barrage of this suite runs in shards: adversarial-routes-*.test.ts.

const V3 = '/pbxcore/api/v3';

describe('adversarial security categories: levels, deep secrets, limiter keys, stream fairness, headers', () => {
  let t: TestServer;
  const logs = captureLogs('debug', { server: true });
  let paths: Record<string, Record<string, { 'x-permission'?: string }>>;
  const ADMIN = 'adversarial security admin';
  const VIEWER = 'adversarial security viewer';
  const token = async (login: string, password: string) =>
    (await t.call(`${V3}/auth:login`, { method: 'POST', body: { login, password } })).json.data.accessToken as string;

  before(async () => {
    t = await startTestServer({
      adminPassword: ADMIN,
      exampleModules: true,
      logger: logs.logger,
    });
    assert.equal((await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { whitelist: REMOTE } })).status, 200);
    await setUserPassword(t.server.services.db, 'viewer', VIEWER, 'viewer');
    paths = (await t.call(`${V3}/openapi:getSpecification`)).json.data.paths;
  });
  after(() => t?.close());

  it('levels: a read grant and a viewer get 403 on every ADMIN and SENSITIVE operation, whatever the verb', async () => {
    const viewer = await token('viewer', VIEWER);
    const requests = privilegedRequests(paths);
    assert.ok(requests.some((r) => r.method === 'GET' && r.path.endsWith('/audit-log')));
    const problems: string[] = [];
    for (const { method, path, level } of requests) {
      const grant = normalisePath(path);
      const read = createTestApiKey(t.server.services.db, { allowedPaths: { [grant]: 'read' } }).key;
      const write = createTestApiKey(t.server.services.db, { allowedPaths: { [grant]: 'write' } }).key;
      const body = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? undefined : {};
      const status = async (headers: Record<string, string>) =>
        (await t.remote(path, { method, headers, body })).status;
      if ((await status({ 'x-api-key': read })) !== 403) problems.push(`read key ${method} ${path}`);
      if ((await status({ authorization: `Bearer ${viewer}` })) !== 403) problems.push(`viewer ${method} ${path}`);
      const written = await status({ 'x-api-key': write });
      if (level === 'SENSITIVE' ? written !== 403 : written === 401 || written === 403 || written >= 500)
        problems.push(`write key ${method} ${path}: ${written}`);
    }
    assert.deepEqual(problems, []);
  });

  it('deep secrets: every write route with secrets nested in its body leaves none in the audit log or the log', async () => {
    const planted: string[] = [];
    const problems: string[] = [];
    for (const route of routesFromOpenApi({ paths })) {
      if (
        !['POST', 'PUT', 'PATCH'].includes(route.method) ||
        route.template.includes('/auth:') ||
        route.family === 'session-start'
      )
        continue;
      const secret = plantedSecret(`${route.method}-${route.template.length}`);
      planted.push(secret);
      const path = route.template.replace(
        /\{[^}]+\}/g,
        route.template.includes('module-example') ? '1' : 'adversarial-missing',
      );
      const answer = await t.call(path, { method: route.method, body: bodyWithNestedSecrets(secret) });
      if (answer.status >= 500) problems.push(`${route.method} ${path}: ${answer.status}`);
    }
    // A PUT of fail2ban is a full replace: the remote caller is whitelisted again for the next steps.
    assert.equal((await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { whitelist: REMOTE } })).status, 200);
    // Secrets in password fields of the auth methods, and in a backup's AMI section.
    const config = (await t.call(`${V3}/backup:exportConfig`)).json.data;
    const amiSecret = plantedSecret('backup-ami');
    planted.push(amiSecret);
    assert.equal(
      (
        await t.call(`${V3}/backup:importConfig`, {
          method: 'POST',
          body: { config: { ...config, ami: { ...config.ami, secret: amiSecret } }, dryRun: true },
        })
      ).status,
      200,
    );
    const guess = plantedSecret('login');
    planted.push(guess);
    assert.equal(
      (await t.remote(`${V3}/auth:login`, { method: 'POST', body: { login: 'nobody', password: guess } })).status,
      401,
    );
    t.server.services.audit.flush();
    const logged = logs.text();
    const table = JSON.stringify(t.server.services.db.prepare('SELECT * FROM audit_log').all());
    const recorded = t.server.services.db
      .prepare(`SELECT count(*) FROM audit_log WHERE diff LIKE '%"field":"config"%'`)
      .pluck()
      .get() as number;
    assert.ok(recorded > 0, 'bodies with nested secrets were recorded');
    for (const secret of planted) {
      if (table.includes(secret)) problems.push(`audit_log holds ${secret}`);
      if (logged.includes(secret)) problems.push(`the log holds ${secret}`);
      const found = await t.call(`${V3}/audit-log?search=${encodeURIComponent(secret)}`);
      if (found.json.data.length !== 0) problems.push(`audit search finds ${secret}`);
    }
    assert.ok(planted.length > 15, `${planted.length} secrets planted`);
    assert.deepEqual(problems, []);
  });

  it('limiter keys: a success for one account does not forgive guesses at another; setPassword answers 429', async () => {
    const login = (body: unknown) => t.remote(`${V3}/auth:login`, { method: 'POST', body });
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      assert.equal((await login({ login: 'viewer', password: VIEWER })).status, 200);
      assert.equal((await login({ login: 'admin', password: `guess-${i}` })).status, 401);
    }
    const limited = await login({ login: 'admin', password: ADMIN });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const viewer = await token('viewer', VIEWER);
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      const wrong = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: { authorization: `Bearer ${viewer}` },
        body: { login: 'viewer', password: 'x'.repeat(12), currentPassword: `guess-${i}` },
      });
      assert.equal(wrong.status, 403, 'a viewer may not set passwords at all');
    }
    const admin = await token('admin', ADMIN);
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      const wrong = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
        body: { login: 'viewer', password: 'a new viewer pass', currentPassword: `guess-${i}` },
      });
      assert.equal(wrong.status, 422, wrong.text);
    }
    const refused = await t.remote(`${V3}/auth:setPassword`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: { login: 'viewer', password: 'a new viewer pass', currentPassword: VIEWER },
    });
    assert.equal(refused.status, 429, refused.text);
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });

  it('stream fairness: one read key cannot hold every event stream; this machine still gets one', async () => {
    const key = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/events': 'read' } }).key;
    const open: Array<() => void> = [];
    const stream = (headers: Record<string, string>, localAddress: string) =>
      new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
        const req = httpRequest(
          `${t.url}${V3}/events?channel=adversarial`,
          { headers, localAddress, agent: false },
          (res) => {
            if (res.statusCode === 200) open.push(() => req.destroy());
            else res.resume();
            resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined });
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      const statuses: number[] = [];
      let refusal: { status: number; retryAfter?: string } | undefined;
      for (let i = 0; i < 40 && !refusal; i++) {
        const answer = await stream({ 'x-api-key': key }, REMOTE);
        statuses.push(answer.status);
        if (answer.status !== 200) refusal = answer;
      }
      assert.equal(refusal?.status, 503, `statuses ${statuses.join(',')}`);
      assert.ok(Number(refusal.retryAfter) > 0);
      assert.ok(statuses.length < 40);
      assert.equal((await stream({}, '127.0.0.1')).status, 200, 'the console on this machine is served');
    } finally {
      for (const close of open) close();
    }
  });
});

describe('crash safety', () => {
  it('kill -9 during writes loses 0 acknowledged writes', async () => {
    const dataDir = makeTempDir('pbx-crash-');
    const serve = spawnServe(dataDir, 'inherit');
    const child = serve.child;
    const acknowledged: string[] = [];
    const serverErrors: string[] = [];
    try {
      const url = await serve.url;
      let next = 1000;
      let killed = false;
      const writer = async () => {
        while (!killed) {
          const number = String(next++);
          try {
            const answer = await request(`${url}${V3}/extensions`, {
              method: 'POST',
              body: { number, username: `Crash ${number}`, secret: 'crash-secret-1' },
            });
            if (answer.status === 201) acknowledged.push(number);
            else if (answer.status >= 500) serverErrors.push(`${answer.status} ${answer.text.slice(0, 120)}`);
          } catch {
            // The connection died with the server: this write was never acknowledged.
          }
        }
      };
      const writers = Array.from({ length: 4 }, writer);
      // Kill in the middle of the stream of writes, once enough have been acknowledged.
      while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 10));
      child.kill('SIGKILL');
      await once(child, 'exit');
      killed = true;
      await Promise.all(writers);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    const t = await startTestServer({ keepDataDir: dataDir });
    try {
      const db = t.server.services.db;
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      const stored = new Set(db.prepare('SELECT number FROM extensions').pluck().all() as string[]);
      const lost = acknowledged.filter((number) => !stored.has(number));
      assert.deepEqual(lost, [], `${lost.length} of ${acknowledged.length} acknowledged writes were lost`);
      assert.deepEqual(serverErrors, [], 'concurrent writes never get a 5xx');
      const answer = await t.call(`${V3}/extensions/${acknowledged.at(-1)}`);
      assert.equal(answer.status, 200, 'the restarted server serves the last acknowledged write');
    } finally {
      await t.close();
      removeTempDir(dataDir);
    }
  });
});

describe('adversarial firewall data: long transactions, range queries, canonical forms, id bounds', () => {
  let t: TestServer;
  let bouncerKey: string;
  let exported: Record<string, unknown>;
  const call = (path: string, method = 'GET', body?: unknown) => t.call(`${V3}/${path}`, { method, body });
  before(async () => {
    t = await startTestServer({ bodyLimitBytes: 4 * 1024 * 1024 });
    bouncerKey = createTestApiKey(t.server.services.db).key;
    exported = (await call('backup:exportConfig')).json.data;
  });
  after(() => t?.close());

  it(
    'long transactions: a 4,000-filter dry-run import (the reported crash) while bouncers poll: ' +
      'polls are answered while it runs, the server stays up',
    async () => {
      const networkFilters = Array.from({ length: 4000 }, (_, i) => ({
        id: i + 1,
        permit: `10.${i >> 8}.${i & 255}.0/24`,
        deny: `172.16.${i >> 8}.${i & 255}`,
        description: `filter ${i}`,
      }));
      let polling = true;
      let importing = false;
      let answeredDuringImports = 0;
      const statuses = new Set<number>();
      const bouncers = Array.from({ length: 5 }, async () => {
        while (polling) {
          statuses.add((await request(`${t.url}${STREAM}`, { headers: { 'X-Api-Key': bouncerKey } })).status);
          if (importing) answeredDuringImports++;
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      for (const dryRun of [true, true]) {
        importing = true;
        const answer = await call('backup:importConfig', 'POST', { config: { ...exported, networkFilters }, dryRun });
        importing = false;
        assert.equal(answer.status, 200, answer.text.slice(0, 300));
      }
      polling = false;
      await Promise.all(bouncers);
      assert.deepEqual([...statuses], [200]);
      assert.ok(answeredDuringImports > 0, 'polls are answered while an import runs, not only after it');
      assert.equal((await call('system:ping')).status, 200);
    },
  );

  it(
    'range queries: /v1/decisions finds range bans and filter entries holding an address or ' +
      'range; malformed queries get 400',
    async () => {
      assert.equal((await call('firewall:banIp', 'POST', { ip: '198.51.101.0/24', duration: '1h' })).status, 201);
      const filter = await call('firewall', 'POST', { permit: '192.0.2.0/24', deny: '198.51.102.0/24' });
      assert.equal(filter.status, 201, filter.text);
      for (const { query, expect } of RANGE_QUERIES) {
        const answer = await t.call(`/pbxcore/api/v3/firewall-bouncer/v1/decisions?${query}`, {
          headers: { 'X-Api-Key': bouncerKey },
        });
        assert.equal(answer.status, 200, query);
        assert.deepEqual(
          answer.json === null ? null : answer.json.map((d: { value: string }) => d.value).sort(),
          expect,
          query,
        );
      }
      for (const query of BAD_RANGE_QUERIES) {
        const answer = await t.call(`/pbxcore/api/v3/firewall-bouncer/v1/decisions?${query}`, {
          headers: { 'X-Api-Key': bouncerKey },
        });
        assert.equal(answer.status, 400, `${query}: ${answer.text}`);
        assert.match(answer.json.message, /^(ip|range|contains):/, query);
      }
      await call('firewall:unbanIp', 'POST', { ip: '198.51.101.0/24' });
      await call(`firewall/${filter.json.data.id}`, 'DELETE');
    },
  );

  it(
    'canonical forms: every spelling of a range is stored as its network and unbanned by any ' +
      'other spelling; unspecified catch-alls get 422',
    async () => {
      for (const { canonical, spellings } of RANGE_SPELLINGS) {
        for (const [index, spelling] of spellings.entries()) {
          const banned = await call('firewall:banIp', 'POST', { ip: spelling, duration: '1h' });
          assert.equal(banned.status, 201, `${spelling}: ${banned.text}`);
          assert.equal(banned.json.data.ip, canonical, spelling);
          const other = spellings[(index + 1) % spellings.length]!;
          const lifted = await call('firewall:unbanIp', 'POST', { ip: other });
          assert.equal(lifted.json.data.lifted, 1, `banned as ${spelling}, unbanned as ${other}`);
        }
        const filter = await call('firewall', 'POST', { permit: spellings[0], deny: spellings.slice(1).join(',') });
        assert.equal(filter.status, 201, filter.text);
        assert.equal(filter.json.data.deny, canonical, 'a deny entry is stored canonical too');
        // A permit is always a CIDR: a single address keeps its full-length prefix.
        assert.equal(
          filter.json.data.permit,
          canonical.includes('/') ? canonical : `${canonical}/${canonical.includes(':') ? 128 : 32}`,
        );
        await call(`firewall/${filter.json.data.id}`, 'DELETE');
      }
      for (const ip of UNSPECIFIED_RANGES) {
        const answer = await call('firewall:banIp', 'POST', { ip });
        assert.equal(answer.status, 422, `${ip}: ${answer.text}`);
        assert.match(answer.json.messages.error.join(' '), /^ip: /, ip);
      }
      assert.deepEqual((await call('firewall:getBannedIps')).json.data, []);
    },
  );

  it(
    'id bounds and strict types: an import never carries an id past 2^31 - 1 nor a mistyped ' +
      'value, and the id sequence stays sound',
    async () => {
      for (const id of BAD_IMPORT_IDS) {
        const answer = await call('backup:importConfig', 'POST', {
          config: { ...exported, networkFilters: [{ id, permit: '192.0.2.0/24' }] },
        });
        assert.equal(answer.status, 422, `${JSON.stringify(id)}: ${answer.text}`);
        assert.match(answer.json.messages.error[0], /^networkFilters\[0\]\.id: /, JSON.stringify(id));
      }
      for (const { section, field, value } of MISTYPED_IMPORTS) {
        const config = { ...exported, [section]: { ...(exported[section] as object), [field]: value } };
        const answer = await call('backup:importConfig', 'POST', { config });
        assert.equal(answer.status, 422, `${section}.${field} = ${JSON.stringify(value)}: ${answer.text}`);
        assert.match(
          answer.json.messages.error.join(' '),
          new RegExp(`^${section}\\.${field}: `),
          `${section}.${field}`,
        );
      }
      // The largest id allowed imports; the next create still gets an id every client can hold.
      assert.equal(
        (
          await call('backup:importConfig', 'POST', {
            config: { ...exported, networkFilters: [{ id: 2 ** 31 - 1, permit: '192.0.2.0/24' }] },
          })
        ).status,
        200,
      );
      const created = await call('firewall', 'POST', { permit: '198.51.100.0/24' });
      assert.equal(created.status, 201, created.text);
      assert.ok(
        Number.isSafeInteger(created.json.data.id) && created.json.data.id > 0,
        JSON.stringify(created.json.data),
      );
      assert.equal((await call(`firewall/${created.json.data.id}`)).json.data.permit, '198.51.100.0/24');
    },
  );
});
