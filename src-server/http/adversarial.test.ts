import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  BAD_IMPORT_IDS,
  BAD_RANGE_QUERIES,
  casesForRoute,
  MISTYPED_IMPORTS,
  RANGE_QUERIES,
  RANGE_SPELLINGS,
  routesFromOpenApi,
  UNSPECIFIED_RANGES,
  type AdversarialCase,
  type CorpusRoute,
  type RouteFamily,
} from '../test-support/adversarial-corpus.ts';
import {
  bodyWithNestedSecrets,
  plantedSecret,
  privilegedRequests,
  securityHeaderProblem,
} from '../test-support/adversarial-security.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { soakSize } from '../test-support/soak.ts';
import { STREAM } from '../test-support/bouncer.ts';
import { normalisePath } from '../auth/allowed-paths.ts';
import { MAX_LOGIN_FAILURES } from '../auth/login-limiter.ts';
import { setUserPassword } from '../auth/users.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { spawnServe } from '../test-support/cli.ts';
import { request } from '../test-support/http.ts';
import { REMOTE, startTestServer, type TestServer } from '../test-support/server.ts';
import { waitUntil } from '../test-support/wait.ts';
import type { Db } from '../storage/database.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

/**
 * The project's adversarial suite: every path and verb of the served OpenAPI document (v3, the
 * bouncer export, legacy and module routes) crossed with every class of bad input, as a caller on
 * loopback and as a remote caller (127.0.0.2) with a full-permission key. Every answer must be a
 * non-5xx envelope of its route family, within a timeout, and, since every case is invalid, the
 * stored data must be exactly as before.
 */

const V3 = '/pbxcore/api/v3';
const SEED = 20_260_401;
const CONCURRENCY = 6;
/** The keyed remote caller runs one case in this many (1 in the soak lane: every case). */
const REMOTE_SHARE = soakSize(3, 1);
const TIMEOUT_MS = 20_000;
/** Tables whose rows only ever change through the requests under test. */
const GUARDED_TABLES = [
  'api_keys',
  'network_filters',
  'extensions',
  'providers',
  'settings',
  'users',
  'module_example_tasks',
  'firewall_bans',
  'auth_sessions',
  'refresh_tokens',
  'web_sessions',
  'failed_jobs',
];
/** Columns that a valid use of a key legitimately changes (the remote caller's key is used). */
const VOLATILE_COLUMNS = new Set(['last_used_at', 'last_used_ip']);

interface Answer {
  status: number;
  contentType: string;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

interface Outcome {
  testCase: AdversarialCase;
  caller: string;
  problem?: string;
  status?: number;
  /** The start of the answer, for ADVERSARIAL_DUMP. */
  text?: string;
}

/** One request over a real socket; a Server-Sent Events answer resolves on its headers. */
function send(url: string, testCase: AdversarialCase, localAddress: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | string[]> = { ...testCase.headers };
    if (testCase.body) headers['content-length'] = String(testCase.body.length);
    let settled = false;
    const req = httpRequest(
      `${url}${testCase.path}`,
      { method: testCase.method, headers, localAddress, agent: false },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.includes('text/event-stream')) {
          settled = true;
          res.on('error', () => undefined);
          res.destroy();
          return resolve({ status: res.statusCode ?? 0, contentType, text: '', headers: res.headers });
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            text: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          });
        });
        res.on('error', (error) => (settled ? undefined : reject(error)));
      },
    );
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', (error) => (settled ? undefined : reject(error)));
    req.end(testCase.body);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with an answer, or undefined when it is a non-5xx answer of the route family's shape. */
export function answerProblem(family: RouteFamily, method: string, answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 200) return `status ${answer.status}`;
  if (method === 'HEAD') return answer.text === '' ? undefined : 'HEAD answer with a body';
  if (answer.contentType.includes('text/event-stream'))
    return family === 'events' && answer.status === 200 ? undefined : 'unexpected event stream';
  // The router feed (firewall-bouncer/blocklist) answers a list or a script as text, not JSON.
  if (family === 'bouncer' && answer.status < 300 && answer.contentType.startsWith('text/plain')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `not JSON (${answer.contentType}): ${answer.text.slice(0, 80)}`;
  }
  // session/start answers `{success, reload, message}`; errors raised before it runs (body and URL
  // limits, unknown verbs) are the standard envelope.
  if (family === 'session-start' && isObject(body) && typeof body.success === 'boolean') {
    return typeof body.reload === 'string' && Array.isArray(body.message) ? undefined : 'not the session/start shape';
  }
  if (family === 'bouncer' && answer.status < 300) {
    // The decision stream, the LAPI decision list (null when nothing matches) and the whitelist.
    if (isObject(body) && Array.isArray(body.new) && Array.isArray(body.deleted)) return undefined;
    if (body === null || Array.isArray(body)) return undefined;
    if (isObject(body) && body.result === true) return undefined;
    return 'not a bouncer answer';
  }
  if (!isObject(body)) return 'not an envelope';
  const envelope = body;
  if (typeof envelope.result !== 'boolean') return 'envelope without a boolean result';
  if (!('data' in envelope)) return 'envelope without data';
  if (!Array.isArray(envelope.messages) && !isObject(envelope.messages)) return 'envelope without messages';
  if (typeof envelope.function !== 'string' || typeof envelope.processor !== 'string')
    return 'envelope without function or processor';
  if (answer.status >= 400) {
    if (envelope.result !== false) return `status ${answer.status} with result true`;
    if (!Array.isArray(envelope.data) || envelope.data.length !== 0) return 'error with data';
    const errors = isObject(envelope.messages) ? envelope.messages.error : undefined;
    if (!Array.isArray(errors) || errors.length === 0 || errors.some((e) => typeof e !== 'string'))
      return 'error without messages.error';
    if (family === 'bouncer' && typeof envelope.message !== 'string')
      return 'bouncer error without a top-level message';
  }
  if (family === 'legacy' && !isObject(envelope.jsonapi)) return 'legacy answer without jsonapi';
  return undefined;
}

/** Every row of the guarded tables, volatile columns left out. */
function snapshot(db: Db): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const table of GUARDED_TABLES) {
    const rows = db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Array<Record<string, unknown>>;
    out[table] = rows.map((row) =>
      Object.fromEntries(Object.entries(row).filter(([column]) => !VOLATILE_COLUMNS.has(column))),
    );
  }
  return out;
}

/** Runs `jobs` with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await job(items[index]!);
      }
    }),
  );
  return results;
}

/** One line per failing input class and route family: count and the first example. */
function summarise(outcomes: Outcome[]): string[] {
  const groups = new Map<string, { count: number; example: Outcome }>();
  for (const outcome of outcomes) {
    const key = `${outcome.testCase.klass} ${outcome.testCase.family}: ${outcome.problem}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { count: 1, example: outcome });
  }
  return [...groups.entries()].map(([key, { count, example }]) => {
    const body = example.testCase.body
      ? ` body ${JSON.stringify(example.testCase.body.subarray(0, 120).toString('utf8'))}`
      : '';
    return `${count}x ${key} — e.g. ${example.caller} ${example.testCase.method} ${example.testCase.path.slice(0, 140)}${body}`;
  });
}

describe('adversarial input on every route', () => {
  let t: TestServer;
  let routes: CorpusRoute[];
  let fullKey: string;
  let stored: Record<string, unknown[]>;
  const moduleBaselines = new Map<string, number>();
  const modulePaths: string[] = [];

  before(async () => {
    t = await startTestServer({
      adminPassword: 'adversarial admin password',
      moduleLoadTimeoutMs: 3000,
      exampleModules: true,
    });
    const seed = async (path: string, body: unknown, method = 'POST') => {
      const answer = await t.call(`${V3}/${path}`, { method, body });
      assert.ok(answer.status < 300, `${path}: ${answer.text}`);
      return answer.json.data;
    };
    // The remote caller must never be banned or rate limited half-way.
    await seed('fail2ban', { whitelist: REMOTE }, 'PATCH');
    await seed('extensions', { number: '201', username: 'Alice', secret: 'secret-201' });
    await seed('providers', {
      description: 'Trunk',
      host: 'sip.example.net',
      username: 'acme',
      secret: 'trunk-secret',
    });
    await seed('firewall', { permit: '192.0.2.0/24', deny: '198.51.100.7', description: 'office' });
    await seed('module-example-tasks/tasks', { title: 'seeded task' });
    fullKey = (await seed('api-keys', { description: 'adversarial remote', full_permissions: true })).key as string;

    const document = await t.call(`${V3}/openapi:getSpecification`);
    assert.equal(document.status, 200);
    routes = routesFromOpenApi(document.json.data);
    for (const route of routes) {
      if (
        route.method !== 'GET' ||
        route.template.includes('{') ||
        !(route.family === 'module' || route.template.startsWith(`${V3}/module-`))
      )
        continue;
      modulePaths.push(route.template);
      moduleBaselines.set(route.template, (await t.call(route.template)).status);
    }
    stored = snapshot(t.server.services.db);
  });
  after(() => t?.close());

  it('covers every path and verb of the OpenAPI document, the bouncer export, legacy and module routes', () => {
    const families = new Set(routes.map((r) => r.family));
    for (const family of ['v3', 'bouncer', 'legacy', 'module', 'session-start'] as const)
      assert.ok(families.has(family), family);
    assert.ok(routes.length > 60, `${routes.length} routes`);
    assert.ok(modulePaths.length >= 3, `module routes: ${modulePaths.join(', ')}`);
  });

  it('no 5xx, never anything but the envelope of the route family, no hang', async () => {
    const started = performance.now();
    const callers: Array<{ name: string; address: string; headers: Record<string, string> }> = [
      { name: 'localhost', address: '127.0.0.1', headers: {} },
      { name: 'remote+full-key', address: REMOTE, headers: { 'x-api-key': fullKey } },
    ];
    const jobs: Array<{ testCase: AdversarialCase; caller: (typeof callers)[number] }> = [];
    for (const caller of callers) {
      for (const [index, route] of routes.entries()) {
        const cases = casesForRoute(route, caller.headers, SEED + index);
        // Loopback gets every case; the keyed remote caller every third in npm test, all in the soak lane.
        for (const [n, testCase] of cases.entries())
          if (caller.name === 'localhost' || n % REMOTE_SHARE === index % REMOTE_SHARE) jobs.push({ testCase, caller });
      }
    }
    // A remote caller without credentials: every route answers 401 (or 403/404 before auth) in the envelope.
    for (const route of routes) {
      for (const testCase of casesForRoute(route, {}, SEED).filter((_, i) => i % 10 === 0))
        jobs.push({ testCase, caller: { name: 'remote', address: REMOTE, headers: {} } });
    }

    const outcomes = await pool(jobs, CONCURRENCY, async ({ testCase, caller }): Promise<Outcome> => {
      try {
        const answer = await send(t.url, testCase, caller.address);
        // Headers category: every answer, whatever the input, carries the security headers.
        const problem =
          answerProblem(testCase.family, testCase.method, answer) ?? securityHeaderProblem(answer.headers);
        return { testCase, caller: caller.name, status: answer.status, problem, text: answer.text.slice(0, 300) };
      } catch (error) {
        return { testCase, caller: caller.name, problem: `no answer: ${(error as Error).message}` };
      }
    });
    // ADVERSARIAL_DUMP=<file> writes every failing case, answer included, for a closer look.
    if (process.env.ADVERSARIAL_DUMP) {
      const dump = outcomes
        .filter((o) => o.problem)
        .map((o) => ({ ...o, testCase: { ...o.testCase, body: o.testCase.body?.subarray(0, 300).toString('utf8') } }));
      writeFileSync(process.env.ADVERSARIAL_DUMP, JSON.stringify(dump, null, 1));
    }
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const failures = outcomes.filter((o) => o.problem !== undefined);
    const statuses = new Map<number, number>();
    for (const o of outcomes) if (o.status) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    console.log(
      `adversarial: ${outcomes.length} cases in ${seconds} s; statuses ` +
        `${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    assert.ok(outcomes.length > soakSize(1500, 2000), `${outcomes.length} cases`);
    assert.deepEqual(summarise(failures), [], `${failures.length} of ${outcomes.length} cases failed`);
  });

  it('stored data is intact afterwards (every case was invalid)', () => {
    const now = snapshot(t.server.services.db);
    for (const table of GUARDED_TABLES) assert.deepEqual(now[table], stored[table], `${table} changed`);
  });

  it('the server serves every module route afterwards', async () => {
    // Afterwards: nothing waits for a worker any more (the barrage's answers were all received). A pool left idle
    // past the module load timeout is worker-modules.test.ts's case (it idles 1.2 s against a 300 ms timeout).
    await waitUntil('the queue drained', () => t.server.services.queue.waiting === 0);
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(
        modulePaths.flatMap((path) => [path, path, path]).map(async (path) => ({ path, answer: await t.call(path) })),
      );
      for (const { path, answer } of answers) {
        assert.equal(answer.status, moduleBaselines.get(path), `${path}: ${answer.text.slice(0, 200)}`);
        assert.ok(answer.status < 500);
      }
    }
  });
});

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
