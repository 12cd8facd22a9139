import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { REMOTE, startTestServer, withTestServer, type TestServer } from '../test-support/server.ts';
import type { TestResponse } from '../test-support/http.ts';
import { setUserPassword } from './users.ts';

const V3 = '/pbxcore/api/v3';
const PASSWORD = 'lifecycle password';

const cookieOf = (answer: TestResponse, name: string) =>
  ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));
const pairOf = (setCookie: string | undefined) => setCookie!.split(';')[0]!;
const login = (t: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  t.remote(`${V3}/auth:login`, { method: 'POST', body, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('auth:login', () => {
  test('JSON or form body; answers the token and sets the refresh cookie', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      const json = await login(t, { login: 'admin', password: PASSWORD });
      assert.equal(json.status, 200);
      assert.deepEqual(Object.keys(json.json.data).sort(), ['accessToken', 'expiresIn', 'login', 'tokenType']);
      assert.equal(json.json.data.tokenType, 'Bearer');
      assert.equal(json.json.data.expiresIn, 900);
      assert.equal(json.json.data.login, 'admin');
      assert.equal(json.json.function, 'login');
      const cookie = cookieOf(json, 'refreshToken')!;
      assert.match(cookie, /; path=\/pbxcore\/api\/v3/i);
      assert.match(cookie, /; httponly/i);
      assert.match(cookie, /; samesite=strict/i);
      assert.doesNotMatch(cookie, /expires=|max-age/i, 'without rememberMe it is a session cookie');
      assert.doesNotMatch(cookie, /; secure/i, 'not Secure over plain HTTP');

      const form = await login(t, `login=admin&password=${encodeURIComponent(PASSWORD)}&rememberMe=1`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(form.status, 200);
      const remembered = cookieOf(form, 'refreshToken')!;
      const expires = Date.parse(/expires=([^;]+)/i.exec(remembered)![1]!);
      assert.ok(Math.abs(expires - (Date.now() + 30 * 86_400_000)) < 120_000, 'rememberMe: 30 days');

      const payload = JSON.parse(Buffer.from(json.json.data.accessToken.split('.')[1], 'base64url').toString());
      assert.equal(payload.sub, 'admin');
      assert.equal(payload.role, 'admin');
      assert.equal(payload.exp - payload.iat, 900);
      assert.equal(typeof payload.sid, 'string');
      const header = JSON.parse(Buffer.from(json.json.data.accessToken.split('.')[0], 'base64url').toString());
      assert.equal(header.alg, 'HS256');

      const used = await t.remote(`${V3}/extensions`, { headers: bearer(json.json.data.accessToken) });
      assert.equal(used.status, 200);
    });
  });

  test('bad credentials get 401 and are reported; missing fields 422; 10 failures for one account in 300 s get 429', async () => {
    const clock = new ManualClock(Date.now());
    const t = await startTestServer({ adminPassword: PASSWORD, clock });
    const events: Array<{ ip: string; category: string; reason: string }> = [];
    t.server.services.bus.on('security-failure', (e) => events.push(e));
    try {
      const missing = await login(t, { login: 'admin' });
      assert.equal(missing.status, 422);
      assert.equal(events.length, 0);
      for (let i = 0; i < 10; i++) {
        const bad = await login(t, { login: 'admin', password: 'wrong password' });
        assert.equal(bad.status, 401, `attempt ${i + 1}`);
        assert.deepEqual(bad.json.messages.error, ['Invalid login or password.']);
      }
      assert.equal(events.length, 10);
      assert.ok(events.every((e) => e.ip === REMOTE && e.category === 'http'));
      const limited = await login(t, { login: 'admin', password: PASSWORD });
      assert.equal(limited.status, 429, 'even the right password waits');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal(limited.json.result, false);
      assert.equal(
        (await t.call(`${V3}/auth:login`, { method: 'POST', body: { login: 'admin', password: PASSWORD } })).status,
        200,
        'per IP',
      );
      const viaSession = await t.remote('/admin-cabinet/session/start', {
        method: 'POST',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
        body: `login=admin&password=${encodeURIComponent(PASSWORD)}`,
      });
      assert.equal(viaSession.status, 429, 'the web login shares the limit');
      clock.advance(300_001);
      assert.equal((await login(t, { login: 'admin', password: PASSWORD })).status, 200);
    } finally {
      await t.close();
    }
  });

  test('before any admin password exists, login is refused with how to set one', async () => {
    await withTestServer({}, async (t) => {
      const status = await t.remote(`${V3}/auth:status`);
      assert.deepEqual(status.json.data, { adminPasswordSet: false, viaLocalhost: false });
      assert.deepEqual((await t.call(`${V3}/auth:status`)).json.data, { adminPasswordSet: false, viaLocalhost: true });
      const refused = await login(t, { login: 'admin', password: 'anything at all' });
      assert.equal(refused.status, 401);
      assert.match(refused.json.messages.error[0], /PBX_ADMIN_PASSWORD/);
      assert.match(refused.json.messages.error[0], /pbx-console admin set-password/);

      // The console over loopback sets it without a current password.
      const remoteSet = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        body: { password: 'first password' },
      });
      assert.equal(remoteSet.status, 401);
      const short = await t.call(`${V3}/auth:setPassword`, { method: 'POST', body: { password: 'short' } });
      assert.equal(short.status, 422);
      const set = await t.call(`${V3}/auth:setPassword`, { method: 'POST', body: { password: 'first password' } });
      assert.equal(set.status, 200, set.text);
      assert.equal((await t.remote(`${V3}/auth:status`)).json.data.adminPasswordSet, true);
      assert.equal((await login(t, { login: 'admin', password: 'first password' })).status, 200);
    });
  });

  test('PBX_ADMIN_PASSWORD applies only while no password is set', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      await t.call(`${V3}/auth:setPassword`, { method: 'POST', body: { password: 'changed on console' } });
      await t.restart();
      assert.equal((await login(t, { login: 'admin', password: PASSWORD })).status, 401);
      assert.equal((await login(t, { login: 'admin', password: 'changed on console' })).status, 200);
    });
  });
});

describe('auth:refresh and auth:logout', () => {
  test('refresh rotates the cookie; reusing a rotated token revokes the whole family', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      const first = await login(t, { login: 'admin', password: PASSWORD, rememberMe: true });
      const cookie1 = pairOf(cookieOf(first, 'refreshToken'));
      const refreshed = await t.remote(`${V3}/auth:refresh`, { method: 'POST', headers: { cookie: cookie1 } });
      assert.equal(refreshed.status, 200);
      assert.equal(refreshed.json.function, 'refresh');
      assert.equal(refreshed.json.data.expiresIn, 900);
      const setCookie2 = cookieOf(refreshed, 'refreshToken')!;
      assert.match(setCookie2, /expires=/i, 'rememberMe survives rotation');
      const cookie2 = pairOf(setCookie2);
      assert.notEqual(cookie2, cookie1);
      const token2 = refreshed.json.data.accessToken as string;
      assert.notEqual(token2, first.json.data.accessToken);
      assert.equal((await t.remote(`${V3}/extensions`, { headers: bearer(token2) })).status, 200);

      // A second device of the same user, another family: it must survive the revocation.
      const other = await login(t, { login: 'admin', password: PASSWORD });

      const reuse = await t.remote(`${V3}/auth:refresh`, { method: 'POST', headers: { cookie: cookie1 } });
      assert.equal(reuse.status, 401);
      assert.match(reuse.json.messages.error[0], /reused/);
      assert.match(cookieOf(reuse, 'refreshToken')!, /expires=Thu, 01 Jan 1970/i, 'the cookie is cleared');
      // The family is gone: its newest refresh token and its access tokens stop working at once.
      assert.equal(
        (await t.remote(`${V3}/auth:refresh`, { method: 'POST', headers: { cookie: cookie2 } })).status,
        401,
      );
      assert.equal((await t.remote(`${V3}/extensions`, { headers: bearer(token2) })).status, 401);
      assert.equal((await t.remote(`${V3}/extensions`, { headers: bearer(first.json.data.accessToken) })).status, 401);
      assert.equal((await t.remote(`${V3}/extensions`, { headers: bearer(other.json.data.accessToken) })).status, 200);

      assert.equal((await t.remote(`${V3}/auth:refresh`, { method: 'POST' })).status, 401, 'no cookie');
      assert.equal(
        (await t.remote(`${V3}/auth:refresh`, { method: 'POST', headers: { cookie: 'refreshToken=forged' } })).status,
        401,
      );
    });
  });

  test('logout revokes the refresh token and its access tokens, and clears the cookie', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      const first = await login(t, { login: 'admin', password: PASSWORD });
      const cookie = pairOf(cookieOf(first, 'refreshToken'));
      const out = await t.remote(`${V3}/auth:logout`, { method: 'POST', headers: { cookie } });
      assert.equal(out.status, 200);
      assert.equal(out.json.data.revoked, true);
      assert.match(cookieOf(out, 'refreshToken')!, /expires=Thu, 01 Jan 1970/i);
      assert.equal((await t.remote(`${V3}/auth:refresh`, { method: 'POST', headers: { cookie } })).status, 401);
      assert.equal((await t.remote(`${V3}/extensions`, { headers: bearer(first.json.data.accessToken) })).status, 401);
      assert.equal(
        (await t.remote(`${V3}/auth:logout`, { method: 'POST' })).status,
        200,
        'logout without a cookie is harmless',
      );
    });
  });
});

describe('auth:setPassword', () => {
  test('remote callers need the current password; viewers may not; other sessions are logged out', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      const a = await login(t, { login: 'admin', password: PASSWORD });
      const b = await login(t, { login: 'admin', password: PASSWORD });
      const withoutCurrent = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: bearer(a.json.data.accessToken),
        body: { password: 'new password 1' },
      });
      assert.equal(withoutCurrent.status, 422);
      const wrong = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: bearer(a.json.data.accessToken),
        body: { password: 'new password 1', currentPassword: 'not it at all' },
      });
      assert.equal(wrong.status, 422);
      const changed = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: bearer(a.json.data.accessToken),
        body: { password: 'new password 1', currentPassword: PASSWORD },
      });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(
        (await t.remote(`${V3}/extensions`, { headers: bearer(a.json.data.accessToken) })).status,
        200,
        'the caller stays in',
      );
      assert.equal(
        (await t.remote(`${V3}/extensions`, { headers: bearer(b.json.data.accessToken) })).status,
        401,
        'other sessions are out',
      );
      assert.equal((await login(t, { login: 'admin', password: 'new password 1' })).status, 200);

      await setUserPassword(t.server.services.db, 'viewer', 'viewer password', 'viewer');
      const v = await login(t, { login: 'viewer', password: 'viewer password' });
      const denied = await t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: bearer(v.json.data.accessToken),
        body: { password: 'viewer password 2', currentPassword: 'viewer password' },
      });
      assert.equal(denied.status, 403);
    });
  });
});

describe('/admin-cabinet/session/start', () => {
  const form = (password: string) => `login=admin&password=${encodeURIComponent(password)}`;
  const start = (
    t: TestServer,
    body: string,
    headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' },
  ) =>
    t.remote('/admin-cabinet/session/start', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  test('needs X-Requested-With, answers {success, reload, message}, and its cookie authenticates v3 and legacy routes', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      const noHeader = await start(t, form(PASSWORD), {});
      assert.equal(noHeader.status, 403);
      assert.equal(noHeader.json.success, false);
      assert.equal(cookieOf(noHeader, 'pbx_session'), undefined);

      const bad = await start(t, form('wrong password'));
      assert.equal(bad.status, 401);
      assert.deepEqual(bad.json, { success: false, reload: '', message: ['Invalid login or password.'] });

      const ok = await start(t, form(PASSWORD));
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.json, { success: true, reload: '/', message: [] });
      const setCookie = cookieOf(ok, 'pbx_session')!;
      assert.match(setCookie, /; httponly/i);
      assert.match(setCookie, /; samesite=strict/i);
      assert.match(setCookie, /; path=\//i);
      const cookie = pairOf(setCookie);

      assert.equal((await t.remote(`${V3}/extensions`, { headers: { cookie } })).status, 200);
      assert.equal((await t.remote('/pbxcore/api/sip/getPeersStatuses', { headers: { cookie } })).status, 200);
      const body = { number: '301', username: 'Cookie', secret: 'abcdefgh12' };
      const csrf = await t.remote(`${V3}/extensions`, { method: 'POST', headers: { cookie }, body });
      assert.equal(csrf.status, 403);
      assert.match(csrf.json.messages.error[0], /X-Requested-With/);
      const created = await t.remote(`${V3}/extensions`, {
        method: 'POST',
        headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
        body,
      });
      assert.equal(created.status, 201);
      assert.equal(
        (await t.remote(`${V3}/extensions`, { headers: { cookie: 'pbx_session=forged-value-that-is-long-enough' } }))
          .status,
        401,
      );

      const out = await t.remote(`${V3}/auth:logout`, { method: 'POST', headers: { cookie } });
      assert.equal(out.status, 200);
      assert.equal(
        (await t.remote(`${V3}/extensions`, { headers: { cookie } })).status,
        401,
        'logout ends the web session',
      );
    });
  });

  test('cross-site browser writes cannot ride on the localhost bypass (they are remote: 401)', async () => {
    await withTestServer({ adminPassword: PASSWORD }, async (t) => {
      const body = { number: '302', username: 'x', secret: 'abcdefgh12' };
      const crossSite = await t.call(`${V3}/extensions`, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'cross-site' },
        body,
      });
      assert.equal(crossSite.status, 401);
      assert.equal(
        (await t.call(`${V3}/extensions`, { headers: { 'sec-fetch-site': 'cross-site' } })).status,
        200,
        'reads are fine',
      );
      assert.equal(
        (await t.call(`${V3}/extensions`, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' }, body }))
          .status,
        201,
      );
    });
  });
});
