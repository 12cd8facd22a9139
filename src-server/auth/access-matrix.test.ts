import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, test } from 'node:test';
import type { Channel, CrudOperation, Level, ResourceDeclaration } from '../resource-kit/types.ts';
import { REMOTE, type TestServer, useTestServer } from '../test-support/server.ts';
import { findWebSession } from './login-sessions.ts';
import {
  ADMIN_PASSWORD,
  loginToken,
  makeCredentials,
  sessionCookie,
  VIEWER_PASSWORD,
  type TestCredentials,
} from '../test-support/credentials.ts';

/**
 * The remote access matrix: every route (every declared v3 operation in the registry, plus the
 * fixed non-v3 routes) is called with every kind of credential, from 127.0.0.2 and from 127.0.0.1.
 * A request that gets through is compared with the same request made through the localhost
 * bypass (its "baseline"): authentication must change nothing but who may call.
 */

type RouteKind = 'v3' | 'legacy' | 'stream' | 'bouncer' | 'session-start';
interface Route {
  kind: RouteKind;
  method: string;
  path: string;
  level: Level;
  isPublic: boolean;
  channels: Channel[];
  singleton?: string;
}
interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- envelopes of any resource
}

const V3 = '/pbxcore/api/v3';
const MISSING_ID = 'matrix-missing';
const SAFE = new Set(['GET', 'HEAD']);
/** Written here, not read from the server: reads need READ, every other CRUD operation WRITE. */
const READ_OPERATIONS = new Set<CrudOperation>(['getList', 'getRecord']);

/** Every declared operation of every registered resource, as concrete requests. */
function v3Routes(declarations: ResourceDeclaration[]): Route[] {
  const routes: Route[] = [];
  for (const d of declarations) {
    const base = `${V3}/${d.name}`;
    const common = { kind: 'v3' as const, channels: d.security.channels, isPublic: false };
    const levelOf = (op: CrudOperation) => d.security.levels?.[op] ?? (READ_OPERATIONS.has(op) ? 'READ' : 'WRITE');
    for (const op of d.operations) {
      if (d.kind === 'singleton') {
        const method = { getRecord: 'GET', update: 'PUT', patch: 'PATCH' }[op as 'getRecord'];
        if (method) routes.push({ ...common, method, path: base, level: levelOf(op), singleton: base });
        continue;
      }
      const [method, path] = {
        getList: ['GET', base],
        create: ['POST', base],
        getRecord: ['GET', `${base}/${MISSING_ID}`],
        update: ['PUT', `${base}/${MISSING_ID}`],
        patch: ['PATCH', `${base}/${MISSING_ID}`],
        delete: ['DELETE', `${base}/${MISSING_ID}`],
      }[op]!;
      routes.push({ ...common, method: method!, path: path!, level: levelOf(op) });
    }
    for (const [name, m] of Object.entries(d.customMethods ?? {})) {
      const path = m.scope === 'collection' ? `${base}:${name}` : `${base}/${MISSING_ID}:${name}`;
      for (const method of m.verbs)
        routes.push({ ...common, method, path, level: m.level, isPublic: m.public === true });
    }
  }
  return routes;
}

/** The routes outside the generic grammar, with the declaration whose rules they follow. */
function fixedRoutes(sip: ResourceDeclaration | undefined): Route[] {
  const legacyChannels = sip?.security.channels ?? ['localhost', 'bearer_token'];
  const bouncer = {
    kind: 'bouncer' as const,
    level: 'READ' as const,
    isPublic: false,
    channels: ['bearer_token' as const],
  };
  return [
    {
      kind: 'session-start',
      method: 'POST',
      path: '/admin-cabinet/session/start',
      level: 'READ',
      isPublic: true,
      channels: ['public'],
    },
    {
      kind: 'legacy',
      method: 'GET',
      path: '/pbxcore/api/sip/getPeersStatuses',
      level: 'READ',
      isPublic: false,
      channels: legacyChannels,
    },
    {
      kind: 'legacy',
      method: 'GET',
      path: '/pbxcore/api/sip/getRegistry',
      level: 'READ',
      isPublic: false,
      channels: legacyChannels,
    },
    {
      kind: 'legacy',
      method: 'POST',
      path: '/pbxcore/api/sip/getSipPeer',
      level: 'READ',
      isPublic: false,
      channels: legacyChannels,
    },
    {
      kind: 'stream',
      method: 'GET',
      path: `${V3}/events?channel=matrix`,
      level: 'READ',
      isPublic: false,
      channels: ['localhost', 'bearer_token'],
    },
    { ...bouncer, method: 'GET', path: `${V3}/firewall-bouncer/v1/decisions/stream` },
    { ...bouncer, method: 'HEAD', path: `${V3}/firewall-bouncer/v1/decisions` },
    { ...bouncer, method: 'GET', path: `${V3}/firewall-bouncer/v1/whitelist` },
    { ...bouncer, method: 'GET', path: `${V3}/firewall-bouncer/blocklist` },
  ];
}

type CaseName =
  | 'none'
  | 'bearerNone'
  | 'garbageJwt'
  | 'expiredJwt'
  | 'futureNbfJwt'
  | 'algNoneJwt'
  | 'otherSecretJwt'
  | 'revokedKey'
  | 'excludedKey'
  | 'filterBoundKey'
  | 'adminJwt'
  | 'viewerJwt'
  | 'sessionWithXrw'
  | 'sessionWithoutXrw';

const INVALID: CaseName[] = [
  'bearerNone',
  'garbageJwt',
  'expiredJwt',
  'futureNbfJwt',
  'algNoneJwt',
  'otherSecretJwt',
  'revokedKey',
];
const CASES: CaseName[] = [
  'none',
  ...INVALID,
  'excludedKey',
  'filterBoundKey',
  'adminJwt',
  'viewerJwt',
  'sessionWithXrw',
  'sessionWithoutXrw',
];

function headersFor(name: CaseName, c: TestCredentials, session: string): Record<string, string> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  switch (name) {
    case 'none':
      return {};
    case 'bearerNone':
      return { authorization: 'Bearer None' };
    case 'garbageJwt':
      return bearer('eyJhbGciOiJIUzI1NiJ9.garbage.garbage');
    case 'expiredJwt':
      return bearer(c.expiredToken);
    case 'futureNbfJwt':
      return bearer(c.futureNbfToken);
    case 'algNoneJwt':
      return bearer(c.algNoneToken);
    case 'otherSecretJwt':
      return bearer(c.otherSecretToken);
    case 'revokedKey':
      return { 'x-api-key': c.revokedKey };
    case 'excludedKey':
      return bearer(c.excludedKey);
    case 'filterBoundKey':
      return { 'x-api-key': c.filterBoundKey };
    case 'adminJwt':
      return bearer(c.adminToken);
    case 'viewerJwt':
      return bearer(c.viewerToken);
    case 'sessionWithXrw':
      return { cookie: session, 'x-requested-with': 'XMLHttpRequest' };
    case 'sessionWithoutXrw':
      return { cookie: session };
  }
}

/** What a route must answer for a case: the baseline (it got through) or an exact refusal. */
function expected(route: Route, name: CaseName, origin: 'local' | 'remote'): 'baseline' | 401 | 403 {
  if (route.kind === 'session-start') return name === 'sessionWithoutXrw' ? 403 : 'baseline';
  if (route.kind === 'bouncer') return name === 'excludedKey' || name === 'filterBoundKey' ? 403 : 401;
  if (route.isPublic) return 'baseline';
  const bearerChannel = route.channels.includes('bearer_token');
  switch (name) {
    case 'none':
      if (origin === 'remote') return 401;
      return route.channels.includes('localhost') ? 'baseline' : 403;
    case 'excludedKey':
    case 'filterBoundKey':
      return 403;
    case 'adminJwt':
    case 'sessionWithXrw':
      return bearerChannel ? 'baseline' : 403;
    case 'viewerJwt':
      return bearerChannel && route.level === 'READ' ? 'baseline' : 403;
    case 'sessionWithoutXrw':
      return bearerChannel && SAFE.has(route.method) ? 'baseline' : 403;
    default:
      return 401;
  }
}

/** A raw request; a Server-Sent Events answer resolves on its headers (the stream never ends by itself). */
function send(
  t: TestServer,
  route: Route,
  headers: Record<string, string>,
  body: string | undefined,
  localAddress: string,
): Promise<Answer> {
  const all: Record<string, string> = { ...headers };
  if (body !== undefined) {
    all['content-type'] = route.kind === 'session-start' ? 'application/x-www-form-urlencoded' : 'application/json';
    all['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${t.url}${route.path}`,
      { method: route.method, headers: all, localAddress, agent: false },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        if (contentType.includes('text/event-stream')) {
          res.on('error', () => undefined);
          res.destroy();
          return resolve({ status: res.statusCode ?? 0, contentType, text: '', json: undefined });
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, contentType, text, json });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`timeout on ${route.method} ${route.path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Asserts the exact refusal: status and the error shape of the route's family. */
function assertRefusal(route: Route, answer: Answer, status: number, label: string): void {
  assert.equal(answer.status, status, `${label}: status (body ${answer.text.slice(0, 200)})`);
  if (route.method === 'HEAD') {
    assert.equal(answer.text, '', `${label}: HEAD has no body`);
    return;
  }
  if (route.kind === 'session-start') {
    assert.equal(answer.json?.success, false, label);
    assert.equal(answer.json.reload, '', label);
    assert.ok(Array.isArray(answer.json.message) && answer.json.message.length > 0, label);
    return;
  }
  assert.equal(answer.json?.result, false, `${label}: result`);
  assert.deepEqual(answer.json.data, [], `${label}: data`);
  assert.ok(
    Array.isArray(answer.json.messages?.error) && answer.json.messages.error.length > 0,
    `${label}: messages.error`,
  );
  if (route.kind !== 'legacy') assert.equal(answer.json.httpCode, status, `${label}: httpCode`);
  if (route.kind === 'bouncer') assert.equal(typeof answer.json.message, 'string', `${label}: bouncer message`);
}

function assertSameAsBaseline(answer: Answer, baseline: Answer, label: string): void {
  assert.equal(
    answer.status,
    baseline.status,
    `${label}: status like the localhost baseline (body ${answer.text.slice(0, 200)})`,
  );
  assert.ok((answer.status !== 401 && answer.status !== 403) || baseline.status === answer.status, label);
  if (baseline.contentType.includes('text/event-stream')) {
    assert.match(answer.contentType, /text\/event-stream/, label);
  } else if (baseline.json && typeof baseline.json === 'object' && 'result' in baseline.json) {
    assert.equal(answer.json?.result, baseline.json.result, `${label}: result`);
    assert.equal(answer.json.function, baseline.json.function, `${label}: function`);
  } else if (baseline.json && 'success' in baseline.json) {
    assert.equal(answer.json?.success, baseline.json.success, label);
  }
}

describe('access matrix', () => {
  let creds: TestCredentials;
  let routes: Route[];
  let session = '';
  const baselines = new Map<string, Answer>();
  const bodies = new Map<string, string | undefined>();
  const keyOf = (r: Route) => `${r.method} ${r.path}`;

  const t = useTestServer({ adminPassword: ADMIN_PASSWORD });
  before(async () => {
    const registry = t.server.services.registry;
    // The matrix presents hundreds of bad credentials from 127.0.0.2: keep the intrusion-ban
    // component (when present) from banning the test client half-way.
    if (registry.get('fail2ban')) {
      const saved = await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { whitelist: REMOTE } });
      assert.equal(saved.status, 200, saved.text);
    }
    creds = await makeCredentials(t);
    session = creds.sessionCookie;
    routes = [...v3Routes(registry.all().map((d) => d.declaration)), ...fixedRoutes(registry.get('sip')?.declaration)];

    for (const route of routes) {
      let body: string | undefined;
      if (route.kind === 'session-start') body = 'login=&password=';
      else if (route.singleton && !SAFE.has(route.method))
        body = JSON.stringify((await t.call(route.singleton)).json.data);
      else if (!SAFE.has(route.method) && route.method !== 'DELETE') body = '{}';
      bodies.set(keyOf(route), body);
      // The baseline: the localhost bypass for routes that allow it, an admin token otherwise.
      const viaLocalhost = route.channels.includes('localhost') || route.isPublic;
      const headers: Record<string, string> =
        route.kind === 'session-start'
          ? { 'x-requested-with': 'XMLHttpRequest' }
          : viaLocalhost
            ? {}
            : { authorization: `Bearer ${creds.adminToken}` };
      baselines.set(keyOf(route), await send(t, route, headers, body, '127.0.0.1'));
    }
  });

  test('the route list covers the registry and the fixed non-v3 routes', () => {
    for (const { declaration } of t.server.services.registry.all()) {
      const declared = declaration.operations.length + Object.keys(declaration.customMethods ?? {}).length;
      if (declared === 0) continue;
      assert.ok(
        routes.some((r) => r.path.startsWith(`${V3}/${declaration.name}`)),
        declaration.name,
      );
    }
    assert.ok(routes.some((r) => r.path === `${V3}/auth:login`));
    assert.ok(routes.some((r) => r.path === `${V3}/api-keys:generateKey`));
    assert.ok(routes.some((r) => r.kind === 'bouncer'));
    assert.ok(routes.length > 30, `only ${routes.length} routes`);
  });

  for (const origin of ['remote', 'local'] as const) {
    test(`every route, every credential, from ${origin === 'remote' ? REMOTE : '127.0.0.1'}`, async () => {
      const address = origin === 'remote' ? REMOTE : '127.0.0.1';
      const tally = { baseline: 0, 401: 0, 403: 0 };
      for (const route of routes) {
        const baseline = baselines.get(keyOf(route))!;
        assert.notEqual(
          baseline.status,
          500,
          `${keyOf(route)}: baseline must not be a 500 (${baseline.text.slice(0, 200)})`,
        );
        for (const name of CASES) {
          let headers = headersFor(name, creds, session);
          if (route.kind === 'session-start' && name !== 'sessionWithoutXrw')
            headers = { ...headers, 'x-requested-with': 'XMLHttpRequest' };
          const answer = await send(t, route, headers, bodies.get(keyOf(route)), address);
          const label = `${origin} ${name} ${keyOf(route)}`;
          const want = expected(route, name, origin);
          tally[want]++;
          if (want === 'baseline') assertSameAsBaseline(answer, baseline, label);
          else assertRefusal(route, answer, want, label);
          // A route such as auth:logout may end the web session: start a new one for the next request.
          if (name.startsWith('session') && !findWebSession(t.server.services.db, session.split('=')[1]!, Date.now())) {
            session = await sessionCookie(t);
          }
          // auth:logout with a valid Bearer JWT revokes it: check that, then log in again.
          if (
            (name === 'adminJwt' || name === 'viewerJwt') &&
            route.path.endsWith('auth:logout') &&
            answer.status === 200
          ) {
            const admin = name === 'adminJwt';
            const old = admin ? creds.adminToken : creds.viewerToken;
            assert.equal(
              (await t.remote(`${V3}/extensions`, { headers: { authorization: `Bearer ${old}` } })).status,
              401,
              `${label}: the token is revoked`,
            );
            const fresh = await loginToken(t, admin ? 'admin' : 'viewer', admin ? ADMIN_PASSWORD : VIEWER_PASSWORD);
            creds = admin ? { ...creds, adminToken: fresh } : { ...creds, viewerToken: fresh };
          }
        }
      }
      // Every outcome occurs many times, so no branch of expected() is dead.
      for (const [outcome, count] of Object.entries(tally))
        assert.ok(count > routes.length / 2, `${outcome}: ${count}`);
    });
  }

  test('every invalid credential is reported to the intrusion-ban component with its source IP', async () => {
    const events: Array<{ category: string; ip: string; reason: string }> = [];
    const off = t.server.services.bus.on('security-failure', (e) => events.push(e));
    try {
      for (const name of INVALID) {
        const answer = await t.remote(`${V3}/extensions`, { headers: headersFor(name, creds, session) });
        assert.equal(answer.status, 401, name);
      }
      assert.equal(events.length, INVALID.length);
      for (const e of events) {
        assert.equal(e.category, 'http');
        assert.equal(e.ip, REMOTE);
        assert.ok(e.reason.length > 0);
      }
      const missing = await t.remote(`${V3}/extensions`);
      assert.equal(missing.status, 401);
      assert.equal(events.length, INVALID.length, 'no credential at all is not an attack');
    } finally {
      off();
    }
  });

  test('the bypass never trusts headers: X-Forwarded-For, X-Real-IP and Host are ignored', async () => {
    const spoofed = await t.remote(`${V3}/extensions`, {
      headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1', host: '127.0.0.1' },
    });
    assert.equal(spoofed.status, 401);
    assert.equal((await t.call(`${V3}/extensions`)).status, 200);
    assert.equal(
      (await t.call(`${V3}/extensions`, { headers: { 'x-api-key': '' } })).status,
      401,
      'an empty X-Api-Key header is a credential too',
    );
    assert.equal(
      (await t.call(`${V3}/extensions`, { headers: { 'x-api-key': 'Basic YWRtaW46YWRtaW4=' } })).status,
      401,
    );
    // Only the Bearer scheme is a credential in Authorization: anything else is ignored.
    assert.equal((await t.call(`${V3}/extensions`, { headers: { authorization: '' } })).status, 200);
    assert.equal(
      (await t.call(`${V3}/extensions`, { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).status,
      200,
    );
    assert.equal((await t.call(`${V3}/extensions`, { headers: { authorization: 'Bearer' } })).status, 401);
  });

  test('a full-permission key and an HS512 token signed with the right secret', async () => {
    assert.equal(
      (await t.remote(`${V3}/general-settings`, { method: 'PATCH', headers: { 'x-api-key': creds.fullKey }, body: {} }))
        .status,
      200,
    );
    const hs512 = await t.remote(`${V3}/extensions`, { headers: { authorization: `Bearer ${creds.hs512Token}` } });
    assert.equal(hs512.status, 401, 'only HS256 is accepted');
  });
});
