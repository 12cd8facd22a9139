import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { closeNow, listenOnLoopback } from '../test-support/loopback-server.ts';
import { startLinkedTestServer } from '../test-support/crowdsec-link.ts';
import type { TestServer } from '../test-support/server.ts';

const V3 = '/pbxcore/api/v3/';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface StoredAlert {
  meta: Array<{ key: string; value: string }>;
  decisions: Array<{ value: string; scenario: string; duration: string; origin: string }>;
  message: string;
}

/**
 * A stand-in LAPI that stores the first POST /v1/alerts and then cuts the connection without an
 * answer (the LAPI took it; the PBX cannot know), as a crash or a network cut would.
 */
describe('push: an alert whose answer was lost is looked up, not sent twice', { timeout: 60_000 }, () => {
  let fake: Server;
  let pbx: TestServer;
  const stored: StoredAlert[] = [];
  const requests: string[] = [];
  const deletes: string[] = [];
  let cutNext = true;

  before(async () => {
    fake = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests.push(`${req.method} ${req.url?.split('?')[0]}`);
        if (req.url === '/v1/watchers/login')
          return res.end(
            JSON.stringify({ code: 200, expire: new Date(Date.now() + 3600_000).toISOString(), token: 't' }),
          );
        if (req.method === 'POST' && req.url === '/v1/alerts') {
          stored.push(...(JSON.parse(body) as StoredAlert[]));
          if (cutNext) {
            cutNext = false;
            return req.socket.destroy();
          }
          res.writeHead(201);
          return res.end(JSON.stringify(stored.map((_, i) => String(i + 1))));
        }
        if (req.method === 'DELETE') {
          deletes.push(new URL(req.url ?? '', 'http://x').searchParams.toString());
          return res.end('{"nbDeleted":"1"}');
        }
        if (req.method === 'GET' && req.url?.startsWith('/v1/alerts'))
          return res.end(JSON.stringify(stored.map((a, i) => ({ id: i + 1, machine_id: 'm', ...a }))));
        res.writeHead(404);
        res.end('{"message":"not here"}');
      });
    });
    pbx = await startLinkedTestServer(await listenOnLoopback(fake), {
      siteName: 'site-x',
      machineLogin: 'm',
      machinePassword: 'p',
    });
  });
  after(async () => {
    await pbx.close();
    await closeNow(fake);
  });

  test('the cut request is confirmed from the LAPI’s alerts (meta pbx_queue_id) and the next ban is sent once too', async () => {
    const bans = pbx.server.services.firewall.bans;
    bans.ban('sip', '192.0.2.31', 'cut test', 600);
    const deadline = Date.now() + 15_000;
    while (
      Date.now() < deadline &&
      (requests.filter((r) => r === 'GET /v1/alerts').length === 0 || pbx.server.services.crowdsecLink.queue.length > 0)
    )
      await sleep(100);
    assert.equal(pbx.server.services.crowdsecLink.queue.length, 0, 'the queue emptied');
    assert.ok(requests.includes('GET /v1/alerts'), 'the unanswered alert was looked up');
    bans.ban('ami', '192.0.2.32', 'after the cut', 600);
    while (Date.now() < deadline && stored.length < 2) await sleep(50);
    await sleep(500);
    assert.deepEqual(
      stored.map((a) => a.decisions[0]!.value),
      ['192.0.2.31', '192.0.2.32'],
      'each ban reached the LAPI exactly once',
    );
    const [first] = stored;
    assert.equal(first!.decisions[0]!.scenario, 'pbx/sip');
    assert.equal(first!.decisions[0]!.origin, 'crowdsec');
    assert.match(first!.decisions[0]!.duration, /^(600|599|598)s$/);
    assert.match(first!.message, /PBX site-x: pbx\/sip ban of 192\.0\.2\.31/);
    assert.deepEqual(first!.meta.find((m) => m.key === 'pbx_site')?.value, 'site-x');
  });

  test('shared filter deny entries go up as pbx/manual decisions of 596 h, and their removal as a deletion', async () => {
    const shared = await pbx.call(`${V3}crowdsec-link`, { method: 'PATCH', body: { shareFilters: true } });
    assert.equal(shared.status, 200, shared.text);
    const filter = await pbx.call(`${V3}firewall`, {
      method: 'POST',
      body: { permit: '10.70.0.0/16', deny: '198.51.100.0/24', description: 'shared block' },
    });
    assert.equal(filter.status, 201, filter.text);
    const deadline = Date.now() + 15_000;
    const pushed = () => stored.find((a) => a.decisions[0]!.value === '198.51.100.0/24');
    while (Date.now() < deadline && !pushed()) await sleep(100);
    assert.equal(pushed()?.decisions[0]!.scenario, 'pbx/manual');
    assert.equal(pushed()?.decisions[0]!.duration, `${596 * 3600}s`);
    const removed = await pbx.call(`${V3}firewall/${filter.json.data.id}`, { method: 'DELETE' });
    assert.equal(removed.status, 200, removed.text);
    while (Date.now() < deadline && deletes.length === 0) await sleep(100);
    assert.deepEqual(deletes, [new URLSearchParams({ value: '198.51.100.0/24', scenario: 'pbx/manual' }).toString()]);
    assert.equal(stored.filter((a) => a.decisions[0]!.value === '198.51.100.0/24').length, 1, 'pushed once');
  });
});
