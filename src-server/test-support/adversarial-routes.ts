import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  casesForRoute,
  routesFromOpenApi,
  type AdversarialCase,
  type CorpusRoute,
  type RouteFamily,
} from './adversarial-corpus.ts';
import { securityHeaderProblem } from './adversarial-security.ts';
import { soakSize } from './soak.ts';
import { REMOTE, startTestServer, type TestServer } from './server.ts';
import { waitUntil } from './wait.ts';
import type { Db } from '../storage/database.ts';

/**
 * The project's adversarial route barrage: every path and verb of the served OpenAPI document (v3, the
 * bouncer export, legacy and module routes) crossed with every class of bad input, as a caller on
 * loopback and as a remote caller (127.0.0.2) with a full-permission key. Every answer must be a
 * non-5xx envelope of its route family, within a timeout, and, since every case is invalid, the
 * stored data must be exactly as before.
 */

const V3 = '/pbxcore/api/v3';
const SEED = 20_260_401;
const CONCURRENCY = 6;
/**
 * In npm test, loopback runs one case in this many of each route, and the keyed remote caller one in REMOTE_SHARE;
 * which ones turns with the route, so every kind of case still meets most routes. The soak lane (CI's second step)
 * runs every case for both.
 */
const LOCAL_SHARE = soakSize(2, 1);
const REMOTE_SHARE = soakSize(4, 1);
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
function answerProblem(family: RouteFamily, method: string, answer: Answer): string | undefined {
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

/**
 * The barrage for one shard of the routes (route index modulo `of` equals `shard`), on a server of its own: the
 * suite runs the shards as separate files at once (src-server/http/adversarial-routes-*.test.ts), where one file
 * of every route took minutes alone on a loaded machine. Each case keeps its seed (SEED + the route's index).
 */
export function describeAdversarialRoutes(shard: number, of: number): void {
  describe(`adversarial input on every route (shard ${shard + 1} of ${of})`, () => {
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
          if (index % of !== shard) continue;
          const cases = casesForRoute(route, caller.headers, SEED + index);
          const share = caller.name === 'localhost' ? LOCAL_SHARE : REMOTE_SHARE;
          for (const [n, testCase] of cases.entries()) if (n % share === index % share) jobs.push({ testCase, caller });
        }
      }
      // A remote caller without credentials: every route answers 401 (or 403/404 before auth) in the envelope.
      for (const [index, route] of routes.entries()) {
        if (index % of !== shard) continue;
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
          .map((o) => ({
            ...o,
            testCase: { ...o.testCase, body: o.testCase.body?.subarray(0, 300).toString('utf8') },
          }));
        writeFileSync(process.env.ADVERSARIAL_DUMP, JSON.stringify(dump, null, 1));
      }
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      const failures = outcomes.filter((o) => o.problem !== undefined);
      const statuses = new Map<number, number>();
      for (const o of outcomes) if (o.status) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
      console.log(
        `adversarial shard ${shard + 1}/${of}: ${outcomes.length} cases in ${seconds} s; statuses ` +
          `${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
      );
      assert.ok(outcomes.length > soakSize(1500, 2000) / of, `${outcomes.length} cases`);
      assert.deepEqual(summarise(failures), [], `${failures.length} of ${outcomes.length} cases failed`);
    });

    it('stored data is intact afterwards (every case was invalid)', () => {
      const now = snapshot(t.server.services.db);
      for (const table of GUARDED_TABLES) assert.deepEqual(now[table], stored[table], `${table} changed`);
    });

    it('the server serves every module route afterwards', async () => {
      // Afterwards: nothing waits for a worker any more (the barrage's answers were all received). A pool left idle
      // past the module load timeout is worker-modules.test.ts's case (it idles 2.5 s against a 1.5 s timeout).
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
}
