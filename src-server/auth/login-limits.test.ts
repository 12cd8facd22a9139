import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { REMOTE, startTestServer, type TestServer } from '../test-support/server.ts';
import { LoginLimiter, LOGIN_WINDOW_MS, MAX_ADDRESS_FAILURES, MAX_LOGIN_FAILURES } from './login-limiter.ts';
import { setUserPassword } from './users.ts';

/** Issue 19 items 10 and 11: limits per (address, account) and per address; setPassword answers 429 too. */

const V3 = '/pbxcore/api/v3';
const ADMIN = 'limits admin password';
const VIEWER = 'limits viewer password';

test('limiter: a success clears only its own account; the address count is not cleared by any success', () => {
  const clock = new ManualClock(0);
  const limiter = new LoginLimiter(() => clock.now());
  for (let i = 0; i < MAX_LOGIN_FAILURES - 1; i++) limiter.recordFailure('192.0.2.1', 'admin');
  limiter.recordSuccess('192.0.2.1', 'viewer');
  limiter.recordFailure('192.0.2.1', 'admin');
  assert.ok(limiter.retryAfterSeconds('192.0.2.1', 'admin') > 0, 'a viewer success did not forgive the admin guesses');
  assert.equal(limiter.retryAfterSeconds('192.0.2.1', 'viewer'), 0, 'the viewer may still log in');
  assert.equal(limiter.retryAfterSeconds('192.0.2.2', 'admin'), 0, 'another address is not limited');
  limiter.recordSuccess('192.0.2.1', 'admin');
  assert.equal(limiter.retryAfterSeconds('192.0.2.1', 'admin'), 0);
  // Spraying accounts: the per-address cap stops it, and no success lifts it.
  for (let i = 0; i < MAX_ADDRESS_FAILURES; i++) limiter.recordFailure('192.0.2.3', `user${i}`);
  limiter.recordSuccess('192.0.2.3', 'viewer');
  const wait = limiter.retryAfterSeconds('192.0.2.3', 'someone-new');
  assert.ok(wait > 0 && wait <= LOGIN_WINDOW_MS / 1000, `${wait}`);
  clock.advance(LOGIN_WINDOW_MS + 1);
  assert.equal(limiter.retryAfterSeconds('192.0.2.3', 'someone-new'), 0, 'the window slides');
});

describe('login limits over HTTP', () => {
  let t: TestServer;
  let clock: ManualClock;
  const login = (body: unknown) => t.remote(`${V3}/auth:login`, { method: 'POST', body });

  before(async () => {
    clock = new ManualClock(Date.now());
    t = await startTestServer({ adminPassword: ADMIN, clock });
    // The limiter is under test, not the intrusion-ban component: keep it from banning the client.
    const saved = await t.call(`${V3}/fail2ban`, { method: 'PATCH', body: { whitelist: REMOTE } });
    assert.equal(saved.status, 200, saved.text);
    await setUserPassword(t.server.services.db, 'viewer', VIEWER, 'viewer');
  });
  after(() => t?.close());

  test('a viewer login between admin guesses does not reset the admin count: the 11th guess gets 429', async () => {
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++) {
      assert.equal((await login({ login: 'viewer', password: VIEWER })).status, 200, 'the viewer logs in');
      assert.equal((await login({ login: 'admin', password: `guess ${i}` })).status, 401, `guess ${i + 1}`);
    }
    const limited = await login({ login: 'admin', password: ADMIN });
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(
      (await login({ login: 'viewer', password: VIEWER })).status,
      200,
      'the viewer is not locked out by guesses at admin',
    );
    clock.advance(LOGIN_WINDOW_MS + 1);
  });

  test('auth:setPassword: wrong currentPassword guesses get 429 with Retry-After, like auth:login', async () => {
    const token = (await login({ login: 'admin', password: ADMIN })).json.data.accessToken as string;
    const setPassword = (currentPassword: string) =>
      t.remote(`${V3}/auth:setPassword`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: { password: 'a brand new password', currentPassword },
      });
    for (let i = 0; i < MAX_LOGIN_FAILURES; i++)
      assert.equal((await setPassword(`wrong ${i}`)).status, 422, `guess ${i + 1}`);
    const limited = await setPassword(ADMIN);
    assert.equal(limited.status, 429, limited.text);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(limited.json.httpCode, 429);
    assert.equal((await login({ login: 'admin', password: ADMIN })).status, 429, 'the same limit as auth:login');
    clock.advance(LOGIN_WINDOW_MS + 1);
    assert.equal((await setPassword(ADMIN)).status, 200, 'after the window the right password works');
  });
});
