import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { ADMIN_PASSWORD } from '../test-support/credentials.ts';
import { REMOTE, useTestServer } from '../test-support/server.ts';
import { IAT_SKEW_SECONDS, loadJwtSecret } from './jwt.ts';

/** Issue 19 item 13: logout revokes the presented Bearer token; a JWT issued in the future is refused. */

const V3 = '/pbxcore/api/v3';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('Bearer tokens: logout and iat', () => {
  const login = async () => {
    const answer = await t.remote(`${V3}/auth:login`, {
      method: 'POST',
      body: { login: 'admin', password: ADMIN_PASSWORD },
    });
    assert.equal(answer.status, 200, answer.text);
    const cookie = ([] as string[])
      .concat(answer.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('refreshToken='))!
      .split(';')[0]!;
    return { token: answer.json.data.accessToken as string, cookie };
  };
  const sidOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
  const extensions = (headers: Record<string, string>) => t.remote(`${V3}/extensions`, { headers });

  const t = useTestServer({ adminPassword: ADMIN_PASSWORD });
  before(async () => {
    // Refused tokens are security failures: keep the intrusion-ban component from banning the client.
    assert.equal((await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { whitelist: REMOTE } })).status, 200);
  });

  test("auth:logout with only a Bearer JWT revokes it (and its session's refresh token); other sessions stay", async () => {
    const mine = await login();
    const other = await login();
    assert.equal((await extensions(bearer(mine.token))).status, 200);
    const out = await t.remote(`${V3}/auth:logout`, { method: 'POST', headers: bearer(mine.token) });
    assert.equal(out.status, 200, out.text);
    assert.equal(out.json.data.revoked, true);
    const refused = await extensions(bearer(mine.token));
    assert.equal(refused.status, 401, 'the presented token is refused at once');
    const refresh = await t.remote(`${V3}/auth:refresh`, { method: 'POST', headers: { cookie: mine.cookie } });
    assert.equal(refresh.status, 401, 'its refresh family is revoked too');
    assert.equal((await extensions(bearer(other.token))).status, 200, 'another login session is untouched');
  });

  test("a forged token naming a victim's session logs nobody out; an API key is not a session", async () => {
    const victim = await login();
    const forged = await new SignJWT({ role: 'admin', sid: sidOf(victim.token) })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(randomBytes(64));
    const out = await t.remote(`${V3}/auth:logout`, { method: 'POST', headers: bearer(forged) });
    assert.equal(out.status, 200);
    assert.equal(out.json.data.revoked, false);
    assert.equal((await extensions(bearer(victim.token))).status, 200, 'the victim stays logged in');
    const key = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/extensions': 'read' } }).key;
    assert.equal(
      (await t.remote(`${V3}/auth:logout`, { method: 'POST', headers: bearer(key) })).json.data.revoked,
      false,
    );
    assert.equal((await extensions({ 'x-api-key': key })).status, 200, 'the key still works');
  });

  test(`a JWT whose iat is more than ${IAT_SKEW_SECONDS} s ahead is refused with 401; within the skew it is accepted`, async () => {
    const { token } = await login();
    const secret = loadJwtSecret(t.dataDir);
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = (iat: number) =>
      new SignJWT({ role: 'admin', sid: sidOf(token) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('admin')
        .setIssuedAt(iat)
        .setExpirationTime(iat + 900)
        .sign(secret);
    const future = await extensions(bearer(await issuedAt(now + 3600)));
    assert.equal(future.status, 401, future.text);
    assert.equal(future.json.httpCode, 401);
    assert.equal((await extensions(bearer(await issuedAt(now + IAT_SKEW_SECONDS * 2)))).status, 401);
    assert.equal((await extensions(bearer(await issuedAt(now + 10)))).status, 200, 'a small skew is tolerated');
  });
});
