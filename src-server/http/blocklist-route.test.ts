import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { banThroughFailures, createFilter, poll } from '../test-support/bouncer.ts';
import { RouterOsModel } from '../test-support/routeros-model.ts';
import { useTestServer } from '../test-support/server.ts';

const FEED = '/pbxcore/api/v3/firewall-bouncer/blocklist';
const basic = (password: string, user = 'router') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A GET that keeps the raw bytes (the test client decodes text, which would hide gzip). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('blocklist feed over HTTP', () => {
  let key: string;
  const t = useTestServer();
  before(async () => {
    key = createTestApiKey(t.server.services.db).key;
    await createFilter(t, { permit: '192.0.2.0/24', deny: '198.51.100.0/24, 203.0.113.50', description: 'blocks' });
    banThroughFailures(t, 'sip', '203.0.113.9');
  });

  test("the plain_text feed is the stream's values, one per line", async () => {
    const stream = await poll(t, key);
    const feed = await t.remote(FEED, { headers: { 'X-Api-Key': key } });
    assert.equal(feed.status, 200, feed.text);
    assert.match(String(feed.headers['content-type']), /^text\/plain/);
    const expected = [...new Set(stream.new.map((d) => d.value))].sort();
    assert.deepEqual(feed.text.split('\n').filter(Boolean), expected);
    assert.ok(expected.includes('203.0.113.9') && expected.includes('198.51.100.0/24'));
  });

  test('the key works as X-Api-Key, Bearer and the Basic password, with the same body', async () => {
    const bodies = new Set<string>();
    const variants: Array<Record<string, string>> = [
      { 'X-Api-Key': key },
      { Authorization: `Bearer ${key}` },
      { Authorization: basic(key) },
      { Authorization: basic(key, '') },
    ];
    for (const headers of variants) {
      const response = await t.remote(FEED, { headers });
      assert.equal(response.status, 200, `${JSON.stringify(Object.keys(headers))}: ${response.text}`);
      bodies.add(response.text);
    }
    assert.equal(bodies.size, 1);
  });

  test('never anonymous: 401 with a Basic challenge, from localhost too', async () => {
    for (const call of [t.call, t.remote]) {
      const response = await call(FEED);
      assert.equal(response.status, 401);
      assert.match(String(response.headers['www-authenticate']), /^Basic realm=/);
      assert.equal(typeof response.json.message, 'string');
    }
  });

  test('a wrong Basic password is a failed credential: 401, and repeated it bans the source', async () => {
    const source = '127.0.0.9';
    const { maxretry } = t.server.services.firewall.state.settings;
    for (let i = 0; i < maxretry; i++) {
      const response = await t.call(FEED, { localAddress: source, headers: { Authorization: basic('f'.repeat(64)) } });
      assert.equal(response.status, 401);
      assert.match(String(response.headers['www-authenticate']), /^Basic/);
    }
    assert.ok(t.server.services.firewall.bans.get('http', source), 'the guessing source is banned');
    const garbled = await t.remote(FEED, { headers: { Authorization: 'Basic !!!' } });
    assert.equal(garbled.status, 401);
  });

  test("the key's network binding applies: 403 from another source", async () => {
    const bound = createTestApiKey(t.server.services.db, { networkFilterId: 'localhost' }).key;
    assert.equal((await t.call(FEED, { headers: { Authorization: basic(bound) } })).status, 200);
    assert.equal((await t.remote(FEED, { headers: { Authorization: basic(bound) } })).status, 403);
    const reader = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/extensions': 'read' } }).key;
    assert.equal(
      (await t.remote(FEED, { headers: { 'X-Api-Key': reader } })).status,
      403,
      'a key without the export grant',
    );
  });

  test('ETag and If-None-Match: 304 while unchanged, 200 with a new ETag after a change', async () => {
    const headers = { 'X-Api-Key': key };
    const first = await t.remote(FEED, { headers });
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await t.remote(FEED, { headers: { ...headers, 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    banThroughFailures(t, 'ami', '203.0.113.77');
    const changed = await t.remote(FEED, { headers: { ...headers, 'If-None-Match': etag } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
    assert.match(changed.text, /^203\.0\.113\.77$/m);
    // MikroTik scripts carry time left: a weak ETag that still gives 304 while nothing changed.
    const script = await t.remote(`${FEED}?format=mikrotik`, { headers });
    assert.match(String(script.headers.etag), /^W\/"/);
    assert.equal(
      (
        await t.remote(`${FEED}?format=mikrotik`, {
          headers: { ...headers, 'If-None-Match': String(script.headers.etag) },
        })
      ).status,
      304,
    );
  });

  test('a MikroTik router: a full list first, then deltas from the cursor it keeps; an unknown cursor gets the full list', async () => {
    const router = new RouterOsModel();
    const fetchFeed = async (since?: string) => {
      const query = `?format=mikrotik&ipv4only&listname=edge${since === undefined ? '' : `&since=${encodeURIComponent(since)}`}`;
      const answer = await t.remote(`${FEED}${query}`, { headers: { 'X-Api-Key': key } });
      assert.equal(answer.status, 200, answer.text);
      router.run(answer.text, t.server.services.clock.now());
      return answer.text;
    };
    await fetchFeed();
    assert.equal(router.ran.swap, 1);
    const held = () => [...router.entries('ip', 'edge', t.server.services.clock.now()).keys()].sort();
    assert.ok(held().includes('203.0.113.9') && held().includes('198.51.100.0/24'));
    banThroughFailures(t, 'sip', '203.0.113.78');
    const delta = await fetchFeed(router.globals.get('PbxFeededge'));
    assert.equal(router.ran.swap, undefined, delta);
    assert.equal(router.ran.upsert, 1, delta);
    assert.ok(held().includes('203.0.113.78'));
    for (const since of ['unknown-cursor', '"; /system reboot', '']) {
      await fetchFeed(since);
      assert.equal(router.ran.swap, 1, `since=${since}: the full list`);
    }
    assert.ok(held().includes('203.0.113.78') && held().includes('203.0.113.9'));
  });

  test('gzip when asked', async () => {
    const plain = await t.remote(FEED, { headers: { 'X-Api-Key': key } });
    const zipped = await rawGet(`${t.url}${FEED}?format=juniper`, { 'X-Api-Key': key, 'Accept-Encoding': 'gzip' });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    const lines = gunzipSync(zipped.body).toString().split('\n').filter(Boolean);
    assert.deepEqual(
      lines.map((l) => l.replace(/\/(32|128)$/, '')),
      plain.text.split('\n').filter(Boolean),
    );
  });

  test('bad input: unknown format 400 listing formats, both families 400, other verbs 405, HEAD without body', async () => {
    const headers = { 'X-Api-Key': key };
    const unknown = await t.remote(`${FEED}?format=csv`, { headers });
    assert.equal(unknown.status, 400);
    assert.match(unknown.json.message, /plain_text, mikrotik, f5, juniper/);
    assert.equal((await t.remote(`${FEED}?ipv4only&ipv6only`, { headers })).status, 400);
    const post = await t.remote(FEED, { method: 'POST', headers });
    assert.equal(post.status, 405);
    assert.equal(post.headers.allow, 'GET, HEAD');
    const head = await t.remote(FEED, { method: 'HEAD', headers });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });
});
