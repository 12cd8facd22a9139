import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { rawRequest as raw, type TestResponse } from '../test-support/http.ts';
import { useTestServer } from '../test-support/server.ts';
import { EXT } from '../test-support/v3-paths.ts';

const envelopeOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('bad input never crashes and never gets a 500', () => {
  const t = useTestServer({ bodyLimitBytes: 64 * 1024 });
  before(async () => {
    await t.call(EXT, { method: 'POST', body: { number: '201', username: 'Alice', secret: 'secret-201' } });
  });

  const expectError = async (status: number, response: Promise<TestResponse>, pattern: RegExp) => {
    const res = await response;
    assert.equal(res.status, status);
    assert.equal(res.json.result, false);
    assert.deepEqual(res.json.data, []);
    assert.match(res.json.messages.error[0], pattern);
  };

  it('malformed JSON gets 400', () =>
    expectError(
      400,
      t.call(EXT, { method: 'POST', body: '{"number": "2', headers: { 'content-type': 'application/json' } }),
      /Malformed JSON/,
    ));

  it('a body over the limit gets 413, declared or streamed', async () => {
    await expectError(
      413,
      t.call(EXT, { method: 'POST', body: { pad: 'x'.repeat(70 * 1024) } }),
      /larger than the limit/,
    );
    const chunked = await raw(
      t.server.port,
      `POST ${EXT} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
        `${(70 * 1024).toString(16)}\r\n${'x'.repeat(70 * 1024)}\r\n0\r\n\r\n`,
    );
    assert.match(chunked, /^HTTP\/1.1 413/);
  });

  it('a wrong content type gets 415', () =>
    expectError(
      415,
      t.call(EXT, { method: 'POST', body: 'number=1', headers: { 'content-type': 'text/plain' } }),
      /not supported/,
    ));

  it('invalid UTF-8 gets 400', () =>
    expectError(
      400,
      t.call(EXT, {
        method: 'POST',
        body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        headers: { 'content-type': 'application/json' },
      }),
      /UTF-8/,
    ));

  it('a JSON body that is not an object gets 422', () =>
    expectError(422, t.call(EXT, { method: 'POST', body: [1, 2] }), /JSON object/));

  it('ids with odd characters get 404 or 400, never 500', async () => {
    for (const id of ['%F0%9F%98%80', "1'%3B%20DROP%20TABLE%20extensions%3B--", '...', '%25', 'a%20b']) {
      const res = await t.call(`${EXT}/${id}`);
      assert.equal(res.status, 404, `${id}: ${res.text}`);
    }
    assert.equal((await t.call(`${EXT}/%00`)).status, 400);
    assert.equal((await t.call(`${EXT}/%E0%A4%A`)).status, 400);
  });

  it('a very long path gets 414 and very long headers 431, each with an envelope', async () => {
    await expectError(414, t.call(`${EXT}/${'9'.repeat(5000)}`), /longer than/);
    const response = await raw(
      t.server.port,
      `GET ${EXT} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    assert.match(response, /^HTTP\/1.1 431/);
    assert.equal(envelopeOf(response).result, false);
  });

  it('a malformed HTTP request gets 400 with an envelope', async () => {
    const response = await raw(t.server.port, 'NOT A REQUEST\r\n\r\n');
    assert.match(response, /^HTTP\/1.1 400/);
    assert.match(envelopeOf(response).messages.error[0], /Malformed/);
  });

  it('keeps serving and keeps the data after all of that', async () => {
    const res = await t.call(`${EXT}/201`);
    assert.equal(res.status, 200);
    assert.equal(res.json.data.username, 'Alice');
  });
});
