import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { DEFAULT_STREAM_LIMITS, StreamSlots } from './stream-slots.ts';

/** Issue 19 item 12: SSE slots shared fairly (caps per principal and address, a reserve for loopback and admins). */

const remote = (principal: string, address: string, admin = false) => ({ principal, address, loopback: false, admin });

test('slots: caps per principal and per address, a reserve only loopback and admins may use, release frees', () => {
  const slots = new StreamSlots({ total: 10, reserved: 3, perPrincipal: 2, perAddress: 3 });
  assert.ok(slots.claim(remote('key:1', '192.0.2.1')).ok);
  const second = slots.claim(remote('key:1', '192.0.2.2'));
  assert.ok(second.ok);
  const third = slots.claim(remote('key:1', '192.0.2.3'));
  assert.ok(!third.ok && /2 event streams/.test(third.reason), 'per principal, from any address');
  assert.ok(slots.claim(remote('key:2', '192.0.2.1')).ok);
  assert.ok(slots.claim(remote('key:3', '192.0.2.1')).ok);
  const crowded = slots.claim(remote('key:4', '192.0.2.1'));
  assert.ok(!crowded.ok && /192\.0\.2\.1/.test(crowded.reason), 'per address, whoever calls');
  assert.ok(slots.claim(remote('key:5', '192.0.2.4')).ok);
  assert.ok(slots.claim(remote('key:6', '192.0.2.5')).ok);
  assert.ok(slots.claim(remote('key:7', '192.0.2.7')).ok);
  assert.equal(slots.size, 7);
  const reserve = slots.claim(remote('key:8', '192.0.2.6'));
  assert.ok(!reserve.ok && /reserved/.test(reserve.reason), 'the last 3 are reserved');
  assert.ok(slots.claim(remote('user:admin', '192.0.2.6', true)).ok, 'an admin takes a reserved slot');
  assert.ok(
    slots.claim({ principal: 'localhost', address: '127.0.0.1', loopback: true, admin: false }).ok,
    'so does this machine',
  );
  const last = slots.claim({ principal: 'localhost', address: '127.0.0.1', loopback: true, admin: false });
  assert.ok(last.ok);
  assert.ok(
    !slots.claim({ principal: 'localhost', address: '127.0.0.1', loopback: true, admin: false }).ok,
    'the total bounds everyone',
  );
  last.release();
  last.release();
  assert.equal(slots.size, 9, 'a release counts once');
  if (second.ok) second.release();
  assert.ok(slots.claim(remote('key:1', '192.0.2.9', true)).ok, 'a released slot is free again for its principal');
});

interface OpenStream {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  req: ClientRequest;
}

/** Opens `GET /events`; resolves on the headers (a stream) or the full answer (a refusal). */
function openStream(t: TestServer, headers: Record<string, string>, localAddress: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${t.url}/pbxcore/api/v3/events?channel=fair`,
      { headers, localAddress, agent: false },
      (res) => {
        if (String(res.headers['content-type']).includes('text/event-stream')) {
          res.on('error', () => undefined);
          return resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', req });
        }
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, req }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('event streams over HTTP', () => {
  let t: TestServer;
  const open: ClientRequest[] = [];
  const stream = async (headers: Record<string, string>, address: string) => {
    const answer = await openStream(t, headers, address);
    if (answer.status === 200) open.push(answer.req);
    return answer;
  };

  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    for (const req of open) req.destroy();
    await t?.close();
  });

  test('one read key holds at most its share; another key, another address and this machine still get streams', async () => {
    const { db } = t.server.services;
    const paths = { '/api/v3/events': 'read' } as const;
    const greedy = createTestApiKey(db, { allowedPaths: paths }).key;
    for (let i = 0; i < DEFAULT_STREAM_LIMITS.perPrincipal; i++)
      assert.equal((await stream({ 'x-api-key': greedy }, '127.0.0.2')).status, 200, `stream ${i + 1}`);
    const refused = await stream({ 'x-api-key': greedy }, '127.0.0.3');
    assert.equal(refused.status, 503, refused.body);
    assert.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After');
    assert.equal(JSON.parse(refused.body).httpCode, 503);

    // The same address with other keys, up to the address cap.
    let held = DEFAULT_STREAM_LIMITS.perPrincipal;
    while (held < DEFAULT_STREAM_LIMITS.perAddress) {
      const other = createTestApiKey(db, { allowedPaths: paths }).key;
      for (let i = 0; i < DEFAULT_STREAM_LIMITS.perPrincipal && held < DEFAULT_STREAM_LIMITS.perAddress; i++, held++) {
        assert.equal((await stream({ 'x-api-key': other }, '127.0.0.2')).status, 200);
      }
    }
    const fresh = createTestApiKey(db, { allowedPaths: paths }).key;
    assert.equal((await stream({ 'x-api-key': fresh }, '127.0.0.2')).status, 503, 'the address is full');
    assert.equal((await stream({ 'x-api-key': fresh }, '127.0.0.3')).status, 200, 'the same key from another address');
    assert.equal((await stream({}, '127.0.0.1')).status, 200, 'the console on this machine');
  });
});
