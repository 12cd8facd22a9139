import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { BusEvent } from '../bus.ts';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { rawRequest } from '../test-support/http.ts';
import { useTestServer } from '../test-support/server.ts';
import { parseHostHeader } from './localhost-bypass.ts';

const V3 = '/pbxcore/api/v3';
const EXT = `${V3}/extensions`;
const KEYS = `${V3}/api-keys`;
const STREAM = `${V3}/firewall-bouncer/v1/decisions/stream`;
const LEGACY = '/pbxcore/api/sip/getPeersStatuses';

describe('credentials: only Authorization: Bearer counts', () => {
  let key: string;
  const failures: BusEvent[] = [];
  const t = useTestServer();
  before(async () => {
    key = createTestApiKey(t.server.services.db, {
      allowedPaths: { '/api/v3/extensions': 'read', '/api/v3/firewall-bouncer': 'read', '/api/sip': 'read' },
    }).key;
    t.server.services.bus.on('security-failure', (e) => failures.push(e));
  });

  it("a proxy's Basic (or any other scheme) does not hide X-Api-Key: v3, bouncer export and legacy", async () => {
    for (const scheme of ['Basic YWRtaW46YWRtaW4=', 'Negotiate YIIB', 'Digest username="a"', 'Token abc', '']) {
      const headers = { authorization: scheme, 'x-api-key': key };
      for (const path of [EXT, STREAM, LEGACY]) {
        const answer = await t.remote(path, { headers });
        assert.equal(answer.status, 200, `${scheme || '(empty)'} ${path}: ${answer.text.slice(0, 200)}`);
      }
    }
  });

  it('another scheme alone is no credential: 401 remotely (no failure counted), the bypass on loopback', async () => {
    const before = failures.length;
    assert.equal((await t.remote(EXT, { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).status, 401);
    assert.equal(failures.length, before, 'a Basic header is not a guessed credential');
    assert.equal((await t.call(EXT, { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).status, 200);
    assert.equal(
      (await t.call(STREAM, { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).status,
      401,
      'the bouncer export never has a bypass',
    );
  });

  it('Bearer with a malformed or missing token counts and is rejected, from loopback too', async () => {
    for (const value of ['Bearer', 'Bearer ', 'Bearer None', 'bearer None', 'BEARER a b', `Bearer ${key} extra`]) {
      const before = failures.length;
      for (const path of [EXT, STREAM, LEGACY]) {
        const answer = await t.call(path, { headers: { authorization: value, 'x-api-key': key } });
        assert.equal(answer.status, 401, `${JSON.stringify(value)} ${path}`);
      }
      assert.equal(failures.length, before + 3, `${JSON.stringify(value)} is reported as a failed credential`);
    }
    assert.equal(
      (await t.remote(EXT, { headers: { authorization: `bearer ${key}` } })).status,
      200,
      'the scheme is case-insensitive',
    );
  });
});

describe('the localhost bypass needs a loopback socket, a loopback or trusted Host, and same-origin writes', () => {
  let own: string;
  let n = 400;
  const body = () => ({ number: String(n++), username: 'x', secret: 'abcdefgh12' });
  const keyCount = () => (t.server.services.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
  const t = useTestServer({ trustedHosts: ['pbx.lan', 'console.example:9999'] });
  before(async () => {
    own = t.url;
  });

  it('a DNS-rebinding page (Host: attacker.example) is remote: 401 for reads and writes, on every route family', async () => {
    for (const host of [
      'attacker.example',
      `attacker.example:${t.server.port}`,
      '127.0.0.2',
      '127.0.0.1.attacker.example',
      'localhost.',
    ]) {
      for (const path of [EXT, LEGACY, `${V3}/events?channel=x`]) {
        const read = await t.call(path, { headers: { host } });
        assert.equal(read.status, 401, `${host} ${path}`);
        assert.equal(read.json.result, false);
      }
      const write = await t.call(EXT, { method: 'POST', headers: { host }, body: body() });
      assert.equal(write.status, 401, host);
    }
    const answer = await t.call(EXT, { headers: { host: 'attacker.example' } });
    assert.match(answer.json.messages.error[0], /localhost bypass does not apply \(Host "attacker\.example"/);
    const status = await t.call(`${V3}/auth:status`, { headers: { host: 'attacker.example' } });
    assert.equal(status.json.data.viaLocalhost, false);
    const noHost = await rawRequest(t.server.port, `GET ${EXT} HTTP/1.0\r\n\r\n`);
    assert.match(noHost, /^HTTP\/1.1 401/, 'an HTTP/1.0 request without Host is remote');
  });

  it('loopback Host names, with any port, and configured trusted hosts keep the bypass', async () => {
    const port = t.server.port;
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${port}`,
      'localhost',
      `LOCALHOST:${port}`,
      '[::1]',
      `[::1]:${port}`,
      'pbx.lan',
      'pbx.lan:80',
      'console.example:9999',
    ]) {
      assert.equal((await t.call(EXT, { headers: { host } })).status, 200, host);
    }
    assert.equal(
      (await t.call(EXT, { headers: { host: 'console.example:9998' } })).status,
      401,
      'a trusted entry with a port matches that port only',
    );
    assert.equal((await t.call(`${V3}/auth:status`)).json.data.viaLocalhost, true);
    assert.equal(
      (await t.remote(EXT, { headers: { host: '127.0.0.1' } })).status,
      401,
      '127.0.0.2 stays remote whatever it says',
    );
  });

  it('a write with a foreign Origin is remote (401) and changes nothing', async () => {
    for (const origin of [
      'http://127.0.0.1:1234',
      'http://attacker.example',
      'null',
      `https://127.0.0.1:${t.server.port}`,
      `${own}/path`,
      'http://localhost:1',
    ]) {
      const answer = await t.call(EXT, { method: 'POST', headers: { origin }, body: body() });
      assert.equal(answer.status, 401, origin);
      assert.match(answer.json.messages.error[0], /Origin/);
    }
    assert.equal(
      (await t.call(EXT, { headers: { origin: 'http://127.0.0.1:1234' } })).status,
      200,
      'reads are not guarded by Origin',
    );
  });

  it('a form POST from a page on another 127.0.0.1 port (Sec-Fetch-Site: same-site) cannot create a full-permissions key', async () => {
    const before = keyCount();
    const form = await t.call(KEYS, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://127.0.0.1:1234',
        'sec-fetch-site': 'same-site',
      },
      body: 'description=pwned&full_permissions=1',
    });
    assert.equal(form.status, 401);
    for (const site of ['same-site', 'cross-site', 'SAME-SITE', 'anything']) {
      const answer = await t.call(KEYS, {
        method: 'POST',
        headers: { 'sec-fetch-site': site },
        body: { description: 'pwned', full_permissions: true },
      });
      assert.equal(answer.status, 401, site);
    }
    assert.equal(keyCount(), before, 'no key was created');
    assert.equal((await t.call(EXT, { headers: { 'sec-fetch-site': 'cross-site' } })).status, 200, 'reads are fine');
  });

  it("the console's own same-origin requests keep working without login", async () => {
    const port = t.server.port;
    for (const [host, origin] of [
      [`127.0.0.1:${port}`, own],
      [`localhost:${port}`, `http://localhost:${port}`],
      [`[::1]:${port}`, `http://[::1]:${port}`],
      ['pbx.lan', 'http://pbx.lan'],
      ['pbx.lan:80', 'http://pbx.lan'],
    ]) {
      const answer = await t.call(EXT, {
        method: 'POST',
        headers: { host: host!, origin: origin!, 'sec-fetch-site': 'same-origin' },
        body: body(),
      });
      assert.equal(answer.status, 201, `${host} ${origin}: ${answer.text}`);
    }
    assert.equal(
      (await t.call(EXT, { method: 'POST', headers: { 'sec-fetch-site': 'none' }, body: body() })).status,
      201,
      'a typed URL',
    );
    assert.equal(
      (await t.call(EXT, { method: 'POST', body: body() })).status,
      201,
      'scripts (curl) send neither header',
    );
  });

  it('parses Host headers strictly', () => {
    assert.deepEqual(parseHostHeader('LocalHost:8088'), { hostname: 'localhost', port: 8088 });
    assert.deepEqual(parseHostHeader('[::1]'), { hostname: '::1', port: undefined });
    for (const bad of ['', 'a b', 'host:99999', 'user@host', 'host/x', '[::1', 'host:'])
      assert.equal(parseHostHeader(bad), undefined, bad);
  });
});
