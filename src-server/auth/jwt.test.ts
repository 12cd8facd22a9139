import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { loadJwtSecret, signAccessToken, verifyAccessToken } from './jwt.ts';
import { withTempDir } from '../test-support/temp-db.ts';

const now = Date.parse('2026-06-01T12:00:00Z');
const claims = { sub: 'admin', role: 'admin' as const, sid: 'family-1' };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

test('the secret is generated once, with mode 0600, and kept', () => {
  withTempDir('pbx-jwt-', (dir) => {
    const first = loadJwtSecret(dir);
    assert.equal(first.length, 64);
    assert.equal(statSync(join(dir, 'jwt-secret')).mode & 0o777, 0o600);
    assert.deepEqual(loadJwtSecret(dir), first);
    chmodSync(join(dir, 'jwt-secret'), 0o644);
    loadJwtSecret(dir);
    assert.equal(statSync(join(dir, 'jwt-secret')).mode & 0o777, 0o600, 'a loosened mode is tightened');
    assert.match(readFileSync(join(dir, 'jwt-secret'), 'utf8'), /^[0-9a-f]{128}$/);
  });
});

test('a signed token verifies for 900 s and not after', async () => {
  const secret = randomBytes(64);
  const token = await signAccessToken(secret, claims, now);
  assert.deepEqual(await verifyAccessToken(secret, token, now + 899_000), { ok: true, claims });
  const expired = await verifyAccessToken(secret, token, now + 901_000);
  assert.deepEqual(expired, { ok: false, reason: 'access token expired' });
});

test('alg none, other algorithms, other secrets, future nbf and garbage are refused', async () => {
  const secret = randomBytes(64);
  const iat = Math.floor(now / 1000);
  const payload = { sub: 'admin', role: 'admin', sid: 'family-1', iat, exp: iat + 900 };
  const cases: Record<string, string> = {
    algNone: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`,
    hs512: await new SignJWT(payload).setProtectedHeader({ alg: 'HS512' }).sign(secret),
    otherSecret: await new SignJWT(payload).setProtectedHeader({ alg: 'HS256' }).sign(randomBytes(64)),
    futureNbf: await new SignJWT({ ...payload, nbf: iat + 60 }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
    tampered: (await signAccessToken(secret, claims, now)).replace(
      /\.([^.]+)\./,
      (_m, p: string) => `.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), role: 'viewer' })}.`,
    ),
    badRole: await new SignJWT({ ...payload, role: 'root' }).setProtectedHeader({ alg: 'HS256' }).sign(secret),
    noSid: await new SignJWT({ sub: 'admin', role: 'admin', iat, exp: iat + 900 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secret),
    garbage: 'a.b.c',
    empty: '',
  };
  for (const [name, token] of Object.entries(cases)) {
    const outcome = await verifyAccessToken(secret, token, now);
    assert.equal(outcome.ok, false, name);
  }
  assert.match(((await verifyAccessToken(secret, cases.futureNbf!, now)) as { reason: string }).reason, /nbf/);
});
