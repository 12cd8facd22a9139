import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApiKey, BOUNCER_PATHS } from '../test-support/api-keys.ts';
import { STREAM } from '../test-support/bouncer.ts';
import { flagsFromOpenApi, type FlagTarget } from '../test-support/flag-corpus.ts';
import type { TestResponse } from '../test-support/http.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import type { Db } from '../storage/database.ts';

/**
 * Boolean flags are strict across the API: absent or an explicit false is false, true is true, and
 * anything else gets 422 naming the field with nothing stored (a guessed `dryRun=yes` once ran a
 * real ban import). The flags come from the served OpenAPI document, so a new one is covered here
 * as soon as it is declared; its route needs a base body in BASE_BODIES.
 */

const V3 = '/pbxcore/api/v3';
const ADMIN_PASSWORD = 'flags admin password';

/** JSON values that are no flag: near-misses of true and false, other numbers, null and other types. */
const BAD_JSON_VALUES: unknown[] = ['True', 'TRUE', 'yes', 'on', 'off', 'no', '', ' true', 2, -1, 0.5, null, [], {}];
/** The same for query strings and form bodies, where every value is a string. */
const BAD_TEXT_VALUES = ['True', 'TRUE', 'yes', 'on', 'off', 'no', '', '2', '-1', 'null', 'true,false'];
/** The forms the flag rule accepts, and what each stands for. */
const GOOD_VALUES: Array<[unknown, boolean]> = [
  [true, true],
  [false, false],
  [1, true],
  [0, false],
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
];

/** Tables a refused request must leave exactly as they were (the ban table included: no import ran). */
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
  'notification_channels',
  'notification_rules',
];
const VOLATILE_COLUMNS = new Set(['last_used_at', 'last_used_ip']);

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

const banCount = (db: Db) => (db.prepare('SELECT COUNT(*) AS n FROM firewall_bans').get() as { n: number }).n;
const errorsOf = (answer: TestResponse): string[] => answer.json?.messages?.error ?? [];
/** A 422 whose messages name `name` (as `name: …` or `name.SIP: …`). */
const namesField = (answer: TestResponse, name: string) =>
  answer.status === 422 &&
  errorsOf(answer).some((message) => message.startsWith(`${name}:`) || message.startsWith(`${name}.`));

let nextNumber = 300;
/** A body every route with a flag accepts apart from the flag, by path template (a record's falls back to its collection's). */
/** The seeded channel (the flags of its record are sent against it). */
const bases0 = {
  channel: { name: 'seeded hook', type: 'webhook', url: 'https://hooks.example.net/seed', secret: 'seed-secret-1' },
};

function baseBodies(exported: unknown): Record<string, () => Record<string, unknown>> {
  return {
    [`${V3}/api-keys`]: () => ({ description: 'flag test' }),
    [`${V3}/extensions`]: () => ({ number: String(nextNumber++), username: 'Flag', secret: 'flag-secret-1' }),
    // An extension's number is its id: a record's body leaves it out.
    [`${V3}/extensions/{id}`]: () => ({ username: 'Flag', secret: 'flag-secret-1' }),
    [`${V3}/providers`]: () => ({
      description: 'Flag trunk',
      host: 'sip.example.net',
      username: 'flag',
      secret: 'flag-secret-2',
    }),
    [`${V3}/firewall`]: () => ({ permit: '192.0.2.0/24', description: 'flag test' }),
    [`${V3}/module-example-tasks/tasks`]: () => ({ title: 'flag test' }),
    [`${V3}/notification-channels`]: () => ({
      name: 'flag hook',
      type: 'webhook',
      url: 'https://hooks.example.net/flag',
      secret: 'flag-secret-3',
    }),
    // The channel seeded first has id 1.
    [`${V3}/notification-rules`]: () => ({ name: 'flag rule', channelId: 1 }),
    [`${V3}/ami`]: () => ({}),
    [`${V3}/crowdsec-link`]: () => ({}),
    // The link is off here: a dry run counts (200), a real run is refused naming pushEnabled, never the flag.
    [`${V3}/crowdsec-link:shareActiveBans`]: () => ({}),
    [`${V3}/fail2ban`]: () => ({}),
    [`${V3}/https`]: () => ({}),
    [`${V3}/auth:login`]: () => ({ login: 'admin', password: ADMIN_PASSWORD }),
    [`${V3}/backup:exportConfig`]: () => ({}),
    [`${V3}/backup:importConfig`]: () => ({ config: exported }),
    [`${V3}/firewall:importBans`]: () => ({ format: 'values', content: '203.0.113.9' }),
    [`${V3}/firewall:banIp`]: () => ({ ip: '203.0.113.10', duration: '1h' }),
  };
}

describe('boolean flags are strict across the API', () => {
  let t: TestServer;
  let targets: FlagTarget[];
  let bases: Record<string, () => Record<string, unknown>>;

  before(async () => {
    t = await startTestServer({
      adminPassword: ADMIN_PASSWORD,
      exampleModules: true,
      moduleLoadTimeoutMs: 3000,
      httpsPort: 0,
    });
    const seed = async (path: string, body: unknown) => {
      const answer = await t.post(`${V3}/${path}`, body);
      assert.ok(answer.status < 300, `${path}: ${answer.text}`);
    };
    await seed('extensions', { number: '201', username: 'Alice', secret: 'secret-201' });
    await seed('providers', {
      description: 'Trunk',
      host: 'sip.example.net',
      username: 'acme',
      secret: 'trunk-secret',
    });
    await seed('firewall', { permit: '198.51.100.0/24', description: 'office' });
    await seed('module-example-tasks/tasks', { title: 'seeded task' });
    await seed('api-keys', { description: 'seeded key' });
    await seed('notification-channels', bases0.channel);
    await seed('notification-rules', { name: 'seeded rule', channelId: 1 });
    const exported = await t.call(`${V3}/backup:exportConfig`);
    assert.equal(exported.status, 200, exported.text);
    bases = baseBodies(exported.json.data);
    const document = await t.call(`${V3}/openapi:getSpecification`);
    assert.equal(document.status, 200);
    targets = flagsFromOpenApi(document.json.data);
    // importBans also reads its fields from the query string when the list is a text/plain body.
    targets.push({ method: 'POST', template: `${V3}/firewall:importBans`, name: 'dryRun', place: 'query' });
  });
  after(() => t?.close());

  /** The template with `{id}` filled by the first record of its collection. */
  async function pathOf(template: string): Promise<string> {
    if (!template.includes('{')) return template;
    const collection = template.slice(0, template.indexOf('/{'));
    const list = await t.call(collection);
    // Extensions are addressed by number (their declared idField), other records by id.
    const first = list.json?.data?.[0];
    const id = first?.id ?? first?.number;
    assert.ok(id !== undefined, `no record to address under ${collection}: ${list.text.slice(0, 200)}`);
    return template.replace(/\{[^}]+\}/, encodeURIComponent(String(id)));
  }

  const baseOf = (template: string) => {
    const make = bases[template] ?? bases[template.replace(/\/\{[^}]+\}$/, '')];
    assert.ok(make, `no base body for ${template}: add one to BASE_BODIES`);
    return make();
  };

  /** Sends `value` as the target flag (undefined: leaves it out). */
  async function send(target: FlagTarget, value: unknown): Promise<TestResponse> {
    const path = await pathOf(target.template);
    const base = baseOf(target.template);
    if (target.place === 'query') {
      const query = new URLSearchParams(value === undefined ? {} : { [target.name]: String(value) });
      if (target.method === 'GET') return t.call(`${path}?${query}`);
      // A text/plain body (importBans): the list is the body, every other field rides in the query string.
      const { content, ...rest } = base;
      for (const [name, field] of Object.entries(rest)) query.set(name, String(field));
      return t.call(`${path}?${query}`, {
        method: target.method,
        headers: { 'content-type': 'text/plain' },
        body: String(content),
      });
    }
    const flag = target.place === 'body-map' ? { SIP: value } : value;
    return t.call(path, { method: target.method, body: value === undefined ? base : { ...base, [target.name]: flag } });
  }

  const label = (target: FlagTarget) => `${target.method} ${target.template} ${target.name} (${target.place})`;

  it('finds every flag of the API in the OpenAPI document', () => {
    const found = new Set(
      targets.map((target) => `${target.method} ${target.template.slice(V3.length)} ${target.name}`),
    );
    for (const expected of [
      'POST /firewall:importBans dryRun',
      'POST /backup:importConfig dryRun',
      'GET /backup:exportConfig secrets',
      'POST /auth:login rememberMe',
      'PATCH /fail2ban ipv6ByPrefix',
      'PATCH /fail2ban bantimeIncrement',
      'POST /api-keys full_permissions',
      'PATCH /api-keys/{id} enabled',
      'POST /firewall newer_block_ip',
      'PUT /firewall/{id} local_network',
      'PATCH /firewall/{id} currentRules',
      'PATCH /crowdsec-link pullEnabled',
      'PATCH /ami enabled',
      'PUT /https enabled',
      'POST /extensions disabled',
      'PATCH /providers/{id} disabled',
      'POST /module-example-tasks/tasks done',
    ])
      assert.ok(found.has(expected), `${expected} not found among ${[...found].join(', ')}`);
  });

  it('refuses every value that is not a flag form with 422 naming the field, and stores nothing', async () => {
    const db = t.server.services.db;
    const problems: string[] = [];
    for (const target of targets) {
      const values = target.place === 'query' ? BAD_TEXT_VALUES : BAD_JSON_VALUES;
      for (const value of values) {
        const before = snapshot(db);
        const bans = banCount(db);
        const answer = await send(target, value);
        const shown = `${label(target)} = ${JSON.stringify(value)}`;
        if (!namesField(answer, target.name))
          problems.push(`${shown}: ${answer.status} ${JSON.stringify(errorsOf(answer)).slice(0, 160)}`);
        else if (banCount(db) !== bans) problems.push(`${shown}: the ban count moved (an import ran)`);
        else if (JSON.stringify(snapshot(db)) !== JSON.stringify(before))
          problems.push(`${shown}: stored data changed`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('takes true, false, 1, 0 and their strings for what they say, and absence as false', async () => {
    const problems: string[] = [];
    for (const target of targets) {
      let accepted = 0;
      for (const [value, meaning] of [...GOOD_VALUES, [undefined, false] as [unknown, boolean]]) {
        if (target.place === 'query' && typeof value === 'boolean') continue; // a query string has no JSON boolean
        const answer = await send(target, value);
        const shown = `${label(target)} = ${JSON.stringify(value)}`;
        // Another rule may still refuse the request (the link needs an address to be enabled), never the flag.
        if (answer.status >= 500 || namesField(answer, target.name)) {
          problems.push(`${shown}: ${answer.status} ${JSON.stringify(errorsOf(answer)).slice(0, 160)}`);
          continue;
        }
        if (answer.status < 300) accepted++;
        const data = answer.json?.data;
        const echoed = target.place === 'body-map' ? data?.rules?.SIP : data?.[target.name];
        if (
          answer.status < 300 &&
          target.place === 'body' &&
          typeof echoed === 'boolean' &&
          value !== undefined &&
          echoed !== meaning
        )
          problems.push(`${shown}: read back as ${echoed}`);
        if (
          answer.status < 300 &&
          target.place === 'body-map' &&
          value !== undefined &&
          echoed !== (meaning ? 'allow' : 'block')
        )
          problems.push(`${shown}: read back as ${echoed}`);
      }
      // Each route takes its base body with some flag value, so the base bodies test what they mean to.
      if (!accepted) problems.push(`${label(target)}: no value was accepted`);
    }
    assert.deepEqual(problems, []);
  });

  it('firewall:importBans runs a dry run for true forms, imports for false and absent', async () => {
    const db = t.server.services.db;
    const importing = (body: Record<string, unknown>) =>
      t.post(`${V3}/firewall:importBans`, { format: 'values', ...body });
    for (const [index, dryRun] of [true, 'true', '1', 1].entries()) {
      const bans = banCount(db);
      const answer = await importing({ content: `203.0.113.${100 + index}`, dryRun });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.data.dryRun, true);
      assert.equal(banCount(db), bans, `dryRun ${JSON.stringify(dryRun)} wrote a ban`);
    }
    for (const [index, dryRun] of [false, 'false', '0', 0, undefined].entries()) {
      const bans = banCount(db);
      const answer = await importing({ content: `203.0.113.${120 + index}`, dryRun });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.data.dryRun, false);
      assert.equal(banCount(db), bans + 1, `dryRun ${JSON.stringify(dryRun)} imported nothing`);
    }
  });

  it('auth:login keeps its form body: rememberMe true, 1, false or absent log in; on or yes get 422', async () => {
    const form = (extra: string) =>
      t.call(`${V3}/auth:login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `login=admin&password=${encodeURIComponent(ADMIN_PASSWORD)}${extra}`,
      });
    for (const extra of ['', '&rememberMe=true', '&rememberMe=1', '&rememberMe=false', '&rememberMe=0']) {
      const answer = await form(extra);
      assert.equal(answer.status, 200, `${extra}: ${answer.text}`);
      assert.equal(typeof answer.json.data.accessToken, 'string');
    }
    for (const extra of ['&rememberMe=on', '&rememberMe=yes', '&rememberMe=True', '&rememberMe=']) {
      const sessions = snapshot(t.server.services.db).auth_sessions;
      const answer = await form(extra);
      assert.ok(namesField(answer, 'rememberMe'), `${extra}: ${answer.status} ${answer.text}`);
      assert.deepEqual(snapshot(t.server.services.db).auth_sessions, sessions, `${extra} started a session`);
    }
  });

  it('keeps the CrowdSec protocol flags lenient: startup and the blocklist ipv4only/ipv6only never 422', async () => {
    const { key } = createTestApiKey(t.server.services.db, { allowedPaths: BOUNCER_PATHS });
    const headers = { 'x-api-key': key };
    // startup: only "true" has an effect, anything else is an ordinary poll (SPEC).
    for (const startup of ['true', 'false', 'yes', '1', ''])
      assert.equal((await t.call(`${STREAM}?startup=${startup}`, { headers })).status, 200, `startup=${startup}`);
    // cs-blocklist-mirror reads ipv4only by presence (`?ipv4only` alone), so any value turns it on.
    for (const flag of ['ipv4only', 'ipv4only=yes', 'ipv6only=0'])
      assert.equal(
        (await t.call(`${V3}/firewall-bouncer/blocklist?format=plain_text&${flag}`, { headers })).status,
        200,
        flag,
      );
  });
});
