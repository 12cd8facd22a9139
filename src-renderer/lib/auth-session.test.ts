import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { failed, ok, startApiTestServer, type ApiTestServer } from '../test-support/api-server.ts';
import {
  enterLocalhostMode,
  getAuthSession,
  refreshAccessToken,
  requireLogin,
  startTokenSession,
} from './auth-session.ts';

const REFRESH = 'POST /pbxcore/api/v3/auth:refresh';

describe('auth session', () => {
  let server: ApiTestServer;
  before(async () => {
    server = await startApiTestServer();
  });
  after(() => {
    requireLogin(); // stops the renewal timer
    return server.close();
  });

  it('starts in "checking", then follows localhost mode, a token session and the login screen', () => {
    assert.equal(getAuthSession().mode, 'checking');
    enterLocalhostMode();
    assert.deepEqual(getAuthSession(), { mode: 'localhost', login: null, accessToken: null, notice: null });
    startTokenSession({ accessToken: 'a1', expiresIn: 900, login: 'admin' });
    assert.deepEqual(getAuthSession(), { mode: 'signed-in', login: 'admin', accessToken: 'a1', notice: null });
    requireLogin('Signed out.');
    assert.deepEqual(getAuthSession(), {
      mode: 'login-required',
      login: 'admin',
      accessToken: null,
      notice: 'Signed out.',
    });
  });

  it('renewing exchanges the refresh cookie for a new token; callers at the same time share one request', async () => {
    server.answer(REFRESH, ok({ accessToken: 'a2', expiresIn: 900, login: 'ops' }));
    const both = await Promise.all([refreshAccessToken(), refreshAccessToken()]);
    assert.deepEqual(both, [true, true]);
    assert.equal(server.seen.filter((r) => r.url.endsWith('auth:refresh')).length, 1);
    assert.equal(getAuthSession().accessToken, 'a2');
    assert.equal(getAuthSession().login, 'ops');
  });

  it('a refused or unreadable renewal answers false and keeps the session as it was', async () => {
    server.answer(REFRESH, failed(401, 'revoked'));
    assert.equal(await refreshAccessToken(), false);
    server.answer(REFRESH, { status: 200, body: 'not json' });
    assert.equal(await refreshAccessToken(), false);
    assert.equal(getAuthSession().accessToken, 'a2');
  });
});
