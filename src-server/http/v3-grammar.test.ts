import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { useTestServer } from '../test-support/server.ts';

const V3 = '/pbxcore/api/v3';
const alice = { number: '201', username: 'Alice', secret: 'secret-201' };

describe('v3 grammar over HTTP', () => {
  const t = useTestServer();
  before(async () => {
    assert.equal((await t.call(`${V3}/extensions`, { method: 'POST', body: alice })).status, 201);
  });

  it('routes every row of the SPEC grammar to its operation', async () => {
    const rows: Array<[string, string, number, string]> = [
      ['GET', `${V3}/extensions`, 200, 'getList'],
      ['GET', `${V3}/extensions/201`, 200, 'getRecord'],
      ['POST', `${V3}/extensions`, 201, 'create'],
      ['PUT', `${V3}/extensions/202`, 200, 'update'],
      ['PATCH', `${V3}/extensions/202`, 200, 'patch'],
      ['DELETE', `${V3}/extensions/202`, 200, 'delete'],
      ['GET', `${V3}/extensions:getForSelect`, 200, 'getForSelect'],
    ];
    const bodies: Record<string, unknown> = {
      POST: { number: '202', username: 'Bob', secret: 'secret-202' },
      PUT: { number: '202', username: 'Bobby', secret: 'secret-202' },
      PATCH: { callerid: 'B' },
    };
    for (const [method, path, status, fn] of rows) {
      const res = await t.call(path, { method, body: bodies[method] });
      assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
      assert.equal(res.json.function, fn);
      assert.equal(res.json.processor, 'ExtensionsManagementProcessor');
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await t.call(`${V3}/extensions`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.ok(res.headers['e-tag']);
  });

  it('gives 400 for malformed custom methods and missing segments', async () => {
    for (const path of ['extensions:', 'extensions:a:b', ':getList', 'extensions/:getStatus', 'extensions//201', '']) {
      const res = await t.call(`${V3}/${path}`);
      assert.equal(res.status, 400, `${path}: ${res.text}`);
      assert.equal(res.json.result, false);
      assert.equal(res.json.function, '');
      assert.ok(res.json.messages.error[0].length > 5);
    }
  });

  it('gives 404 for unknown resources and missing records', async () => {
    const unknown = await t.call(`${V3}/no-such-thing`);
    assert.equal(unknown.status, 404);
    // Unknown nested paths are unknown endpoints, not malformed requests.
    for (const path of ['modules/x/y', 'extensions/201/extra', 'no-such-thing/1/2:run']) {
      const res = await t.call(`${V3}/${path}`);
      assert.equal(res.status, 404, `${path}: ${res.text}`);
      assert.equal(res.json.httpCode, 404);
    }
    assert.equal((await t.call(`${V3}/modules/x/y:`)).status, 400, 'a malformed custom method stays 400');
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const res = await t.call(`${V3}/extensions/999`, {
        method,
        body:
          method === 'GET' || method === 'DELETE' ? undefined : { username: 'x', secret: 'secret-999', number: '999' },
      });
      assert.equal(res.status, 404, `${method}: ${res.text}`);
      assert.equal(res.json.httpCode, 404);
      assert.match(res.json.messages.error[0], /not found/);
    }
  });

  it('gives 405 with Allow for undeclared verbs and custom methods', async () => {
    const onRecord = await t.call(`${V3}/extensions/201`, { method: 'POST', body: {} });
    assert.equal(onRecord.status, 405);
    assert.equal(onRecord.headers.allow, 'GET, PUT, PATCH, DELETE');
    assert.equal((await t.call(`${V3}/extensions`, { method: 'DELETE' })).status, 405);
    assert.equal((await t.call(`${V3}/extensions:noSuchMethod`)).status, 405);
    const wrongVerb = await t.call(`${V3}/extensions:getForSelect`, { method: 'POST', body: {} });
    assert.equal(wrongVerb.status, 405);
    assert.equal(wrongVerb.headers.allow, 'GET');
    assert.equal((await t.call(`${V3}/system`)).status, 405, 'system declares no CRUD');
  });

  it('serves system:ping publicly, even to remote callers', async () => {
    const res = await t.remote(`${V3}/system:ping`);
    assert.equal(res.status, 200);
    assert.equal(res.json.result, true);
  });

  it('refuses remote callers without credentials with 401', async () => {
    const res = await t.remote(`${V3}/extensions`);
    assert.equal(res.status, 401);
    assert.equal(res.json.result, false);
  });

  it('puts the SPEC envelope, meta and E-Tag on every answer', async () => {
    for (const path of [`${V3}/extensions`, `${V3}/extensions/404`, `${V3}/x:`, '/nowhere']) {
      const res = await t.call(path);
      const env = res.json;
      for (const key of ['result', 'data', 'messages', 'function', 'processor', 'pid', 'meta'])
        assert.ok(key in env, `${path} lacks ${key}`);
      assert.equal(typeof env.pid, 'number');
      assert.match(env.meta.timestamp, /[+-]\d\d:\d\d$/);
      assert.equal(res.headers['e-tag'], `"${env.meta.hash}"`);
      assert.match(String(res.headers['content-type']), /application\/json/);
    }
  });

  it('returns the same hash for the same content', async () => {
    const a = await t.call(`${V3}/extensions/201`);
    const b = await t.call(`${V3}/extensions/201`);
    assert.equal(a.json.meta.hash, b.json.meta.hash);
  });
});
