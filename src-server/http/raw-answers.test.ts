import assert from 'node:assert/strict';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { before, describe, it } from 'node:test';
import { useTestServer } from '../test-support/server.ts';

/** Writes raw bytes (over TLS when asked) and returns the whole raw response once the server closes. */
function raw(port: number, payload: string, tls = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = tls
      ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => socket.write(payload))
      : connectTcp(port, '127.0.0.1', () => socket.write(payload));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/** Status, lower-cased headers and parsed body of a raw HTTP/1.1 response. */
function parse(response: string) {
  const split = response.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = response.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const body = response.slice(split + 4);
  return { status: Number(statusLine!.split(' ')[1]), headers, body, json: body ? JSON.parse(body) : undefined };
}

describe('answers written on the socket, outside Koa', () => {
  let httpsPort: number;
  const t = useTestServer({ httpsPort: 0 });
  before(async () => {
    const runtime = (await t.call('/pbxcore/api/v3/system:getCertificate')).json.data;
    httpsPort = runtime.port;
  });

  const assertEnvelopeWithETag = (answer: ReturnType<typeof parse>, status: number, pattern: RegExp) => {
    assert.equal(answer.status, status);
    assert.equal(answer.json.result, false);
    assert.deepEqual(answer.json.data, []);
    assert.match(answer.json.messages.error[0], pattern);
    assert.equal(answer.headers['e-tag'], `"${answer.json.meta.hash}"`, 'E-Tag computed like every other answer');
    assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.body)));
  };

  it('answers CONNECT with a 405 envelope instead of a closed socket, on HTTP and HTTPS', async () => {
    for (const [port, tls] of [
      [t.server.port, false],
      [httpsPort, true],
    ] as const) {
      const answer = parse(await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', tls));
      assertEnvelopeWithETag(answer, 405, /CONNECT is not supported/);
      assert.match(answer.headers.allow!, /GET/);
    }
  });

  it("gives the HTTP parser's 400 and 431 an envelope with an E-Tag, on HTTP and HTTPS", async () => {
    for (const [port, tls] of [
      [t.server.port, false],
      [httpsPort, true],
    ] as const) {
      assertEnvelopeWithETag(parse(await raw(port, 'NOT A REQUEST\r\n\r\n', tls)), 400, /Malformed/);
      const big = `GET /pbxcore/api/v3/extensions HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`;
      assertEnvelopeWithETag(parse(await raw(port, big, tls)), 431, /too large/);
      // A bouncer's path keeps its family's `message`, as before the parser's refusal.
      const bouncer = parse(
        await raw(
          port,
          'GET /pbxcore/api/v3/firewall-bouncer/v1/decisions/stream HTTP/1.1\r\nNo colon here\r\n\r\n',
          tls,
        ),
      );
      assert.equal(bouncer.status, 400);
      assert.equal(bouncer.json.message, 'Malformed HTTP request.');
    }
  });

  it('keeps serving afterwards', async () => {
    assert.equal((await t.call('/pbxcore/api/v3/system:ping')).status, 200);
  });
});
