import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { isoWithOffset, renderEnvelope, renderError, statusOf } from './envelope.ts';

const origin = { function: 'getList', processor: 'P', pid: 7 };

describe('envelope', () => {
  it('has the SPEC fields on success, with empty messages as []', () => {
    const { body, status } = renderEnvelope({ result: true, data: [1] }, origin);
    const env = JSON.parse(body);
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(env), ['result', 'data', 'messages', 'function', 'processor', 'pid', 'meta']);
    assert.deepEqual(env.messages, []);
    assert.equal(env.function, 'getList');
    assert.equal(env.pid, 7);
    assert.match(env.meta.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  });

  it('adds httpCode and pagination only when set', () => {
    const env = JSON.parse(
      renderEnvelope(
        { result: true, data: [], httpCode: 201, pagination: { total: 0, limit: 0, offset: 0, hasMore: false } },
        origin,
      ).body,
    );
    assert.equal(env.httpCode, 201);
    assert.deepEqual(env.pagination, { total: 0, limit: 0, offset: 0, hasMore: false });
    const plain = JSON.parse(renderEnvelope({ result: true, data: {} }, origin).body);
    assert.equal('httpCode' in plain, false);
    assert.equal('pagination' in plain, false);
  });

  it('uses [] data and the error/warning/info object on failure; no httpCode means 422', () => {
    const rendered = renderEnvelope({ result: false, data: { leaked: true }, messages: { error: ['bad'] } }, origin);
    const env = JSON.parse(rendered.body);
    assert.equal(statusOf({ result: false }), 422);
    assert.equal(rendered.status, 422);
    assert.deepEqual(env.data, []);
    assert.deepEqual(env.messages, { error: ['bad'], warning: [], info: [] });
  });

  it('hashes the content without meta, so the same content gives the same hash', () => {
    const a = renderEnvelope({ result: true, data: [1] }, origin, {}, new Date(0));
    const b = renderEnvelope({ result: true, data: [1] }, origin, {}, new Date(10_000));
    assert.equal(a.hash, b.hash);
    const content = JSON.stringify({
      result: true,
      data: [1],
      messages: [],
      function: 'getList',
      processor: 'P',
      pid: 7,
    });
    assert.equal(a.hash, createHash('sha1').update(content).digest('hex'));
    assert.equal(JSON.parse(a.body).meta.hash, a.hash);
  });

  it('reports pre-dispatch errors with empty function and processor', () => {
    const env = JSON.parse(renderError(400, ['nope']).body);
    assert.equal(env.function, '');
    assert.equal(env.processor, '');
    assert.equal(env.httpCode, 400);
    assert.equal(env.result, false);
  });

  it('writes timestamps with an explicit offset', () => {
    assert.match(isoWithOffset(new Date('2026-03-01T12:00:00Z')), /^2026-03-01T\d\d:00:00[+-]\d\d:\d\d$/);
  });
});
