import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { failed, ok, startApiTestServer, type ApiTestServer } from '../test-support/api-server.ts';
import { apiRequest, ApiError } from './api-transport.ts';
import { enterLocalhostMode, getAuthSession, requireLogin, startTokenSession } from './auth-session.ts';
import { getConnectionState } from './connection-state.ts';

const V3 = '/pbxcore/api/v3/';

/** The ApiError a call fails with (the test fails if it succeeds or fails otherwise). */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => assert.fail('the call succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError, String(error));
  return error;
}

describe('api transport', () => {
  let server: ApiTestServer;
  before(async () => {
    server = await startApiTestServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
    enterLocalhostMode();
  });

  it('unwraps the envelope: data, pagination and the info and warning notices', async () => {
    const pagination = { total: 3, limit: 2, offset: 0, hasMore: true };
    server.answer(`GET ${V3}bans`, ok([{ id: 1 }], { info: ['2 bans lifted'], warning: ['late'] }, { pagination }));
    const answer = await apiRequest<Array<{ id: number }>>('bans');
    assert.deepEqual(answer, {
      data: [{ id: 1 }],
      pagination,
      notices: { info: ['2 bans lifted'], warning: ['late'] },
    });
  });

  it('sends the query without empty values, JSON bodies with their content type, and the method asked', async () => {
    server.answer(`GET ${V3}audit-log`, ok([]));
    server.answer(`PATCH ${V3}fail2ban`, ok({ maxretry: 5 }));
    await apiRequest('audit-log', { query: { search: 'a b', kind: undefined, page: '', limit: 20 } });
    assert.equal(server.seen[0]!.url, `${V3}audit-log?search=a+b&limit=20`);
    assert.deepEqual((await apiRequest('fail2ban', { method: 'PATCH', body: { maxretry: 5 } })).data, { maxretry: 5 });
    assert.equal(server.seen[1]!.method, 'PATCH');
    assert.equal(server.seen[1]!.headers['content-type'], 'application/json');
    assert.deepEqual(server.seen[1]!.body, { maxretry: 5 });
    assert.equal(server.seen[0]!.headers['content-type'], undefined, 'no body, no content type');
  });

  it('turns an error envelope into an ApiError with the status and the server messages', async () => {
    server.answer(`POST ${V3}firewall`, failed(422, 'permit: 300.1.1.1 is not valid', 'deny: required'));
    const error = await failure(apiRequest('firewall', { method: 'POST', body: { permit: '300.1.1.1' }, quiet: true }));
    assert.equal(error.status, 422);
    assert.deepEqual(error.messages, ['permit: 300.1.1.1 is not valid', 'deny: required']);
    assert.equal(error.message, 'permit: 300.1.1.1 is not valid deny: required');
  });

  it('explains a failure without messages by its status', async () => {
    server.answer(`DELETE ${V3}api-keys/9`, { status: 404, body: 'gone' });
    server.answer(`GET ${V3}system`, { status: 418, body: { result: false, data: null, messages: {} } });
    const gone = await failure(apiRequest('api-keys/9', { method: 'DELETE', quiet: true }));
    assert.deepEqual(gone.messages, ['Not found: it may have been deleted in the meantime. Reload the page.']);
    const teapot = await failure(apiRequest('system', { quiet: true }));
    assert.deepEqual(teapot.messages, ['Request failed with HTTP 418.']);
  });

  it('a `result: false` with a 200 is still a failure', async () => {
    server.answer(`GET ${V3}ami`, { body: { result: false, data: null, messages: { error: ['AMI is off'] } } });
    await assert.rejects(apiRequest('ami', { quiet: true }), { name: 'ApiError', status: 200 });
  });

  it('sends the bearer token when signed in, and none for anonymous calls or in localhost mode', async () => {
    server.answer(`GET ${V3}auth:status`, ok({}));
    await apiRequest('auth:status');
    startTokenSession({ accessToken: 'token-1', expiresIn: 900 });
    await apiRequest('auth:status');
    await apiRequest('auth:status', { anonymous: true });
    requireLogin();
    assert.deepEqual(
      server.seen.map((r) => r.headers.authorization),
      [undefined, 'Bearer token-1', undefined],
    );
  });

  it('a 401 while signed in renews the token once and repeats the request with the new one', async () => {
    startTokenSession({ accessToken: 'old', expiresIn: 900 });
    server.answer(`GET ${V3}bans`, failed(401, 'expired'), ok(['ban']));
    server.answer(`POST ${V3}auth:refresh`, ok({ accessToken: 'new', expiresIn: 900, login: 'admin' }));
    assert.deepEqual((await apiRequest('bans')).data, ['ban']);
    assert.deepEqual(
      server.seen.map((r) => [r.method, r.url, r.headers.authorization]),
      [
        ['GET', `${V3}bans`, 'Bearer old'],
        ['POST', `${V3}auth:refresh`, undefined],
        ['GET', `${V3}bans`, 'Bearer new'],
      ],
    );
    requireLogin();
  });

  it('a 401 that renewing cannot cure shows the login screen and says why', async () => {
    startTokenSession({ accessToken: 'old', expiresIn: 900 });
    server.answer(`GET ${V3}bans`, failed(401, 'expired'));
    server.answer(`POST ${V3}auth:refresh`, failed(401, 'revoked'));
    await assert.rejects(apiRequest('bans'), { status: 401 });
    assert.equal(getAuthSession().mode, 'login-required');
    assert.equal(getAuthSession().notice, 'Your session has ended. Sign in again.');
  });

  it('no answer at all is an ApiError 0 and marks the server unreachable; the next answer marks it back', async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError('fetch failed'));
    try {
      const error = await failure(apiRequest('system'));
      assert.equal(error.status, 0);
      assert.match(error.message, /cannot be reached/);
      assert.equal(getConnectionState().reachable, false);
    } finally {
      globalThis.fetch = realFetch;
    }
    server.answer(`GET ${V3}system`, ok({ version: '1' }));
    await apiRequest('system');
    assert.equal(getConnectionState().reachable, true);
  });
});
