import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { STRICT_TRANSPORT_SECURITY } from './security-headers.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

/** Issue 19 item 12: the security headers are on every answer of the console and the API, HSTS over TLS only. */

type Headers = Record<string, string | string[] | undefined>;

/** Status and headers of a request; a stream is cut once its headers arrive. */
function head(url: string, method: string, localAddress = '127.0.0.1'): Promise<{ status: number; headers: Headers }> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, localAddress, rejectUnauthorized: false, agent: false }, (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.on('error', () => undefined);
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

/** The raw header block of an answer the server writes straight on the socket. */
function rawHeaders(port: number, payload: string, tls: boolean): Promise<Headers> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = tls
      ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => socket.write(payload))
      : connectTcp(port, '127.0.0.1', () => socket.write(payload));
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('end', () => {
      const lines = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n').slice(1);
      resolve(
        Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        ),
      );
    });
    socket.on('error', reject);
  });
}

function assertSecurityHeaders(headers: Headers, tls: boolean, label: string): void {
  const csp = String(headers['content-security-policy'] ?? '');
  assert.match(csp, /(^|; )default-src 'self'(;|$)/, `${label}: CSP default-src`);
  assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/, `${label}: CSP frame-ancestors`);
  assert.match(csp, /(^|; )script-src 'self'(;|$)/, `${label}: script-src`);
  assert.doesNotMatch(csp, /script-src[^;]*('unsafe-inline'|'unsafe-eval')/, `${label}: no inline or evaluated script`);
  assert.equal(headers['x-frame-options'], 'DENY', `${label}: X-Frame-Options`);
  assert.equal(headers['x-content-type-options'], 'nosniff', `${label}: X-Content-Type-Options`);
  assert.equal(headers['referrer-policy'], 'no-referrer', `${label}: Referrer-Policy`);
  if (tls) assert.equal(headers['strict-transport-security'], STRICT_TRANSPORT_SECURITY, `${label}: HSTS over TLS`);
  else assert.equal(headers['strict-transport-security'], undefined, `${label}: no HSTS over plain HTTP`);
}

describe('security headers on every answer', () => {
  let t: TestServer;
  let httpsPort: number;
  const staticDir = makeTempDir('pbx-static-');

  before(async () => {
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(
      join(staticDir, 'index.html'),
      '<!doctype html><title>console</title><script type="module" src="/assets/app.js"></script>',
    );
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'document.title = "ok";');
    t = await startTestServer({ httpsPort: 0, staticDir });
    httpsPort = (await t.call('/pbxcore/api/v3/system:getCertificate')).json.data.port;
  });
  after(async () => {
    await t?.close();
    removeTempDir(staticDir);
  });

  const REQUESTS: Array<[string, string, number, string?]> = [
    ['GET', '/', 200],
    ['GET', '/bans/history', 200],
    ['GET', '/assets/app.js', 200],
    ['HEAD', '/', 200],
    ['GET', '/pbxcore/api/v3/system:ping', 200],
    ['HEAD', '/pbxcore/api/v3/extensions', 200],
    ['GET', '/pbxcore/api/v3/no-such-resource', 404],
    ['GET', '/pbxcore/api/v3/extensions', 401, '127.0.0.2'],
    ['DELETE', '/pbxcore/api/v3/system:ping', 405],
    ['GET', '/pbxcore/api/v3/events?channel=headers', 200],
    ['GET', '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream', 401],
    ['GET', '/pbxcore/api/sip/getPeersStatuses', 200],
    ['GET', '/admin-cabinet/session/start', 404],
  ];

  for (const tls of [false, true]) {
    it(`Koa's answers, console and API, success and error, over ${tls ? 'HTTPS' : 'HTTP'}`, async () => {
      const base = tls ? `https://127.0.0.1:${httpsPort}` : t.url;
      for (const [method, path, status, from] of REQUESTS) {
        const answer = await head(`${base}${path}`, method, from);
        assert.equal(answer.status, status, `${method} ${path}`);
        assertSecurityHeaders(answer.headers, tls, `${method} ${path}`);
      }
    });

    it(`answers written on the socket (parser errors, CONNECT) over ${tls ? 'HTTPS' : 'HTTP'}`, async () => {
      const port = tls ? httpsPort : t.server.port;
      assertSecurityHeaders(await rawHeaders(port, 'NOT A REQUEST\r\n\r\n', tls), tls, 'parser 400');
      assertSecurityHeaders(
        await rawHeaders(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', tls),
        tls,
        'CONNECT 405',
      );
    });
  }
});
