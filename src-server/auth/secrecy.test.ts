import assert from 'node:assert/strict';
import { test } from 'node:test';
import { captureLogs } from '../test-support/captured-logs.ts';
import { DIAGNOSTICS_MODULE, REMOTE, startTestServer } from '../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const PASSWORD = 'secrecy admin password';

test(
  'keys, tokens and passwords never appear in lists, records, logs, the database or forwarded ' +
    'headers; workers get the SPEC session context',
  async () => {
    const { logger, text } = captureLogs('trace');
    const t = await startTestServer({ adminPassword: PASSWORD, logger, resourceModules: [DIAGNOSTICS_MODULE] });
    try {
      const made = await t.call(`${V3}/api-keys`, {
        method: 'POST',
        body: { description: 'secret holder', full_permissions: true },
      });
      assert.equal(made.status, 201);
      const key = made.json.data.key as string;
      const id = made.json.data.id as number;

      const list = await t.call(`${V3}/api-keys`);
      const record = await t.call(`${V3}/api-keys/${id}`);
      assert.equal(list.text.includes(key), false);
      assert.equal(record.text.includes(key), false);
      const rows = JSON.stringify(t.server.services.db.prepare('SELECT * FROM api_keys').all());
      assert.equal(rows.includes(key), false, 'only the hash is stored');

      // API key: filtered headers and the session context, from 127.0.0.2.
      for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }] as Array<
        Record<string, string>
      >) {
        const echo = await t.remote(`${V3}/diagnostics:echo`, {
          headers: {
            ...headers,
            'x-forwarded-for': '203.0.113.9',
            'authentication-info': key,
            origin: 'http://console.example',
          },
        });
        assert.equal(echo.status, 200, echo.text);
        assert.equal(echo.text.includes(key), false, 'the key is not forwarded in any header');
        assert.equal(echo.json.data.headers['x-api-key'], undefined);
        assert.equal(echo.json.data.headers.authorization, undefined);
        assert.equal(echo.json.data.headers['x-forwarded-for'], '203.0.113.9');
        assert.deepEqual(echo.json.data.session, {
          auth_type: 'api_key',
          token_id: id,
          origin: 'http://console.example',
          remote_addr: REMOTE,
        });
      }

      // JWT: user_name, role and session_id as well.
      const login = await t.remote(`${V3}/auth:login`, {
        method: 'POST',
        body: { login: 'admin', password: PASSWORD },
      });
      const token = login.json.data.accessToken as string;
      const sid = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
      const jwtEcho = await t.remote(`${V3}/diagnostics:echo`, { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual(jwtEcho.json.data.session, {
        auth_type: 'jwt',
        token_id: sid,
        origin: 'api',
        remote_addr: REMOTE,
        user_name: 'admin',
        role: 'admin',
        session_id: sid,
      });
      assert.equal(jwtEcho.text.includes(token), false);

      // Localhost and session-cookie requests hand the worker no session context.
      assert.equal((await t.call(`${V3}/diagnostics:echo`)).json.data.session, null);
      const started = await t.remote('/admin-cabinet/session/start', {
        method: 'POST',
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
        body: `login=admin&password=${encodeURIComponent(PASSWORD)}`,
      });
      const cookie = String(started.headers['set-cookie']).split(';')[0]!;
      const cookieEcho = await t.remote(`${V3}/diagnostics:echo`, { headers: { cookie } });
      assert.equal(cookieEcho.status, 200);
      assert.equal(cookieEcho.json.data.session, null);
      assert.equal(cookieEcho.json.data.headers.cookie, undefined);

      // Failures leave no secret behind either.
      await t.remote(`${V3}/auth:login`, {
        method: 'POST',
        body: { login: 'admin', password: 'guessed-password-123' },
      });
      await t.call(`${V3}/api-keys/${id}`, { method: 'DELETE' });
      assert.equal((await t.remote(`${V3}/extensions`, { headers: { 'x-api-key': key } })).status, 401);

      logger.flush();
      const log = text();
      assert.ok(log.includes('"msg":"request"'), 'the access log was captured');
      for (const secret of [key, token, PASSWORD, 'guessed-password-123', cookie.split('=')[1]!]) {
        assert.equal(log.includes(secret), false, `a secret (${secret.slice(0, 6)}...) reached the log`);
      }
    } finally {
      await t.close();
    }
  },
);
