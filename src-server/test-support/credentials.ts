import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { TestServer } from './server.ts';
import { loadJwtSecret } from '../auth/jwt.ts';
import { setUserPassword } from '../auth/users.ts';

/** Test-only: every kind of credential the access tests present, valid and invalid. */
export interface TestCredentials {
  adminToken: string;
  viewerToken: string;
  adminSid: string;
  expiredToken: string;
  futureNbfToken: string;
  algNoneToken: string;
  otherSecretToken: string;
  hs512Token: string;
  revokedKey: string;
  excludedKey: string;
  filterBoundKey: string;
  fullKey: string;
  sessionCookie: string;
  sessionToken: string;
}

export const ADMIN_PASSWORD = 'matrix admin password';
export const VIEWER_PASSWORD = 'matrix viewer password';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Logs in from 127.0.0.1 and returns the access token. */
export async function loginToken(t: TestServer, login: string, password: string): Promise<string> {
  const answer = await t.call('/pbxcore/api/v3/auth:login', { method: 'POST', body: { login, password } });
  if (answer.status !== 200) throw new Error(`login ${login} failed: ${answer.status} ${answer.text}`);
  return answer.json.data.accessToken as string;
}

/** Starts a web session and returns the `name=value` cookie pair. */
export async function sessionCookie(t: TestServer): Promise<string> {
  const answer = await t.call('/admin-cabinet/session/start', {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
    body: `login=admin&password=${encodeURIComponent(ADMIN_PASSWORD)}`,
  });
  const cookie = String(answer.headers['set-cookie'] ?? '').split(';')[0]!;
  if (answer.status !== 200 || !cookie.includes('='))
    throw new Error(`session start failed: ${answer.status} ${answer.text}`);
  return cookie;
}

async function createKey(t: TestServer, body: Record<string, unknown>): Promise<{ id: number; key: string }> {
  const answer = await t.call('/pbxcore/api/v3/api-keys', { method: 'POST', body });
  if (answer.status !== 201) throw new Error(`key creation failed: ${answer.status} ${answer.text}`);
  return { id: answer.json.data.id as number, key: answer.json.data.key as string };
}

/** Builds the credentials against a server started with `adminPassword: ADMIN_PASSWORD`. */
export async function makeCredentials(t: TestServer): Promise<TestCredentials> {
  const { db } = t.server.services;
  await setUserPassword(db, 'viewer', VIEWER_PASSWORD, 'viewer');
  const adminToken = await loginToken(t, 'admin', ADMIN_PASSWORD);
  const viewerToken = await loginToken(t, 'viewer', VIEWER_PASSWORD);
  const claims = JSON.parse(Buffer.from(adminToken.split('.')[1]!, 'base64url').toString()) as { sid: string };
  const secret = loadJwtSecret(t.dataDir);
  const now = Math.floor(Date.now() / 1000);
  const sign = (key: Uint8Array, alg = 'HS256') =>
    new SignJWT({ role: 'admin', sid: claims.sid }).setProtectedHeader({ alg }).setSubject('admin');

  const revoked = await createKey(t, { description: 'revoked', full_permissions: true });
  await t.call(`/pbxcore/api/v3/api-keys/${revoked.id}`, { method: 'DELETE' });
  const filterId = Number(
    db.prepare("INSERT INTO network_filters (permit, description) VALUES ('10.0.0.0/8', 'matrix: elsewhere')").run()
      .lastInsertRowid,
  );

  return {
    adminToken,
    viewerToken,
    adminSid: claims.sid,
    expiredToken: await sign(secret)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 2700)
      .sign(secret),
    futureNbfToken: await sign(secret)
      .setIssuedAt(now)
      .setNotBefore(now + 600)
      .setExpirationTime(now + 900)
      .sign(secret),
    algNoneToken: `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'admin', role: 'admin', sid: claims.sid, iat: now, exp: now + 900 })}.`,
    otherSecretToken: await sign(secret)
      .setIssuedAt(now)
      .setExpirationTime(now + 900)
      .sign(randomBytes(64)),
    hs512Token: await sign(secret, 'HS512')
      .setIssuedAt(now)
      .setExpirationTime(now + 900)
      .sign(secret),
    revokedKey: revoked.key,
    excludedKey: (await createKey(t, { description: 'excluded', allowed_paths: { '/api/v3/nothing-here': 'write' } }))
      .key,
    filterBoundKey: (
      await createKey(t, { description: 'bound elsewhere', full_permissions: true, networkfilterid: String(filterId) })
    ).key,
    fullKey: (await createKey(t, { description: 'full', full_permissions: true })).key,
    ...(await (async () => {
      const cookie = await sessionCookie(t);
      return { sessionCookie: cookie, sessionToken: cookie.split('=')[1]! };
    })()),
  };
}
