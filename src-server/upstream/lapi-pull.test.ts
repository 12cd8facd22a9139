import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createTestApiKey } from '../test-support/api-keys.ts';
import { poll } from '../test-support/bouncer.ts';
import { closeNow, listenOnLoopback } from '../test-support/loopback-server.ts';
import type { TestServer } from '../test-support/server.ts';
import { startLinkedTestServer } from '../test-support/crowdsec-link.ts';
import { ANSWER_TIMEOUT_MS, LapiError, lapiRequest, MAX_ANSWER_BYTES } from './lapi-http.ts';
import { listUpstreamBans } from './upstream-bans.ts';

const V3 = '/pbxcore/api/v3/';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stand-in LAPI whose stream answer each test sets (the real one is in e2e/crowdsec-lapi.test.ts). */
let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{"new":null,"deleted":null}');
let fake: Server;
let lapiUrl: string;
let pbx: TestServer;

async function waitFor<T>(ms: number, what: string, check: () => T | Promise<T>): Promise<NonNullable<T>> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - start > ms) assert.fail(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

const pullStatus = async () => (await pbx.call(`${V3}crowdsec-link:getStatus`)).json.data.pull;
const decision = (id: number, value: string, extra: Record<string, unknown> = {}) => ({
  id,
  origin: 'cscli',
  type: 'ban',
  scope: 'Ip',
  value,
  duration: '59m58.5s',
  scenario: "manual 'ban' from 'cli'",
  ...extra,
});

describe(
  'pulling a LAPI stream: bad answers are dropped and retried; big ones do not block',
  { timeout: 120_000 },
  () => {
    before(async () => {
      fake = createServer((req, res) => answer(req, res));
      lapiUrl = await listenOnLoopback(fake);
      pbx = await startLinkedTestServer(lapiUrl, {
        pushEnabled: false,
        pullEnabled: true,
        bouncerKey: 'k'.repeat(40),
        pullIntervalSeconds: 1,
      });
    });
    after(async () => {
      await pbx.close();
      await closeNow(fake);
    });

    test('a malformed answer is dropped with its reason, the PBX keeps serving, and the next good answer applies', async () => {
      const before = (await pullStatus()).droppedAnswers;
      answer = (_req, res) => res.end('{"new": [ {"id": 1, "value": ');
      const failed = await waitFor(30_000, 'malformed answer reported', async () => {
        const s = await pullStatus();
        return s.droppedAnswers > before && s.state === 'error' ? s : undefined;
      });
      assert.match(failed.lastError, /malformed/);
      assert.equal((await pbx.call(`${V3}system:ping`)).status, 200);
      answer = (_req, res) =>
        res.end(
          JSON.stringify({
            new: [decision(7, '127.0.0.7'), decision(8, 'FR', { scope: 'Country' }), { id: 'x' }],
            deleted: null,
          }),
        );
      await waitFor(
        30_000,
        'the good answer applied',
        async () => (await pbx.call(`${V3}system:ping`, { localAddress: '127.0.0.7' })).status === 403,
      );
      const ok = await waitFor(30_000, 'status ok', async () => {
        const s = await pullStatus();
        return s.state === 'ok' ? s : undefined;
      });
      assert.equal(ok.skipped['scope:Country'], 1);
      assert.equal(ok.skipped.invalid, 1);
    });

    test('an answer over 64 MB is cut off and dropped, and an unknown-scope decision never bans everything', async () => {
      const before = (await pullStatus()).droppedAnswers;
      const mb = Buffer.alloc(1024 * 1024, 0x20);
      answer = (_req, res) => {
        res.write('{"new":[');
        let sent = 0;
        const more = () => {
          while (sent <= MAX_ANSWER_BYTES / mb.length) {
            sent++;
            if (!res.write(mb)) return void res.once('drain', more);
          }
          res.end(']}');
        };
        res.on('error', () => {});
        more();
      };
      const failed = await waitFor(20_000, 'huge answer reported', async () => {
        const s = await pullStatus();
        return s.droppedAnswers > before ? s : undefined;
      });
      assert.match(failed.lastError, /67108864-byte limit/);
      assert.equal((await pbx.call(`${V3}system:ping`, { localAddress: '127.0.0.9' })).status, 200);
    });

    test('a LAPI slower than the limit is dropped (30 s by default; 300 ms here)', async () => {
      assert.equal(ANSWER_TIMEOUT_MS, 30_000);
      answer = () => {}; // never answers
      const error = await lapiRequest({
        method: 'GET',
        baseUrl: lapiUrl,
        path: 'v1/decisions/stream',
        timeoutMs: 300,
      }).catch((e: unknown) => e);
      assert.ok(error instanceof LapiError);
      assert.equal(error.kind, 'timeout');
      assert.match(error.message, /within 0\.3 s/, 'the limit given, not the 30 s default');
      fake.closeAllConnections();
    });

    test('firewall:getBannedIps lists the upstream bans in force with origin and scenario, not liftable, counted apart', async () => {
      const upstreamBody = JSON.stringify({
        new: [
          decision(20, '198.51.100.20', { origin: 'CAPI', scenario: 'crowdsecurity/ssh-bf', duration: '2h' }),
          // Same value, shorter: the longest decision is the one enforced and listed.
          decision(21, '198.51.100.20', { duration: '1h' }),
          decision(22, '203.0.113.0/24', {
            scope: 'Range',
            origin: 'crowdsec',
            scenario: 'crowdsecurity/http-probing',
          }),
          decision(23, '127.0.0.1'), // this host's loopback: never banned here, so never listed
          // Unspecified addresses: no packet comes from them, so they are never banned here either.
          decision(24, '0.0.0.0'),
          decision(25, '0.0.0.0/8', { scope: 'Range' }),
          decision(26, '::'),
          decision(27, '::ffff:0.0.0.0/100', { scope: 'Range' }),
          decision(28, '::/64', { scope: 'Range' }),
        ],
        deleted: null,
      });
      answer = (_req, res) => res.end(upstreamBody);
      const manual = await pbx.call(`${V3}firewall:banIp`, {
        method: 'POST',
        body: { ip: '192.0.2.99', duration: 3600 },
      });
      assert.equal(manual.status, 201, manual.text);
      type Listed = { ip: string; category: string; bannedBy: string; secondsLeft: number; upstream?: unknown };
      const banned = async () => {
        const answer = await pbx.call(`${V3}firewall:getBannedIps`);
        assert.equal(answer.status, 200, answer.text);
        return answer.json as { data: Listed[]; pagination: { total: number; hasMore: boolean } };
      };
      const listed = await waitFor(30_000, 'the upstream bans listed', async () => {
        const answer = await banned();
        return answer.data.some((b) => b.ip === '203.0.113.0/24') ? answer : undefined;
      });
      const byIp = new Map(listed.data.map((b) => [b.ip, b]));
      assert.equal(byIp.get('192.0.2.99')?.category, 'manual');
      assert.equal(byIp.get('192.0.2.99')?.upstream, undefined, "this PBX's own ban is not marked upstream");
      const capi = byIp.get('198.51.100.20')!;
      assert.equal(capi.category, 'upstream');
      assert.equal(capi.bannedBy, 'CAPI');
      assert.deepEqual(capi.upstream, { origin: 'CAPI', scenario: 'crowdsecurity/ssh-bf', liftable: false });
      assert.equal(
        pbx.server.services.firewall.bans.isBanned('198.51.100.20'),
        true,
        'listed as the guard enforces it',
      );
      assert.ok(capi.secondsLeft > 3600 && capi.secondsLeft <= 7200, `${capi.secondsLeft} s left`);
      assert.deepEqual(byIp.get('203.0.113.0/24')?.upstream, {
        origin: 'crowdsec',
        scenario: 'crowdsecurity/http-probing',
        liftable: false,
      });
      assert.ok(!byIp.has('127.0.0.1'), 'a decision this PBX does not enforce is not listed');
      for (const value of ['0.0.0.0', '0.0.0.0/8', '::', '0.0.0.0/4', '::/64'])
        assert.ok(!byIp.has(value), `${value}: unspecified, never banned`);
      assert.equal(pbx.server.services.firewall.bans.isBanned('0.0.0.0'), false);
      assert.equal(pbx.server.services.firewall.bans.isBanned('::'), false);
      const upstreamListed = listed.data.filter((b) => b.category === 'upstream').length;
      assert.ok(upstreamListed >= 2);
      assert.equal(listed.pagination.total, listed.data.length, 'the total counts own and upstream bans');
      assert.equal(listed.pagination.hasMore, false);
      // A long upstream list is cut, never its count.
      const cut = listUpstreamBans(pbx.server.services.db, Date.now(), 1);
      assert.deepEqual([cut.bans.length, cut.total], [1, upstreamListed]);
      assert.equal(cut.bans[0]!.ip, '198.51.100.20', 'the longest-lasting first');

      // An unban here does not lift the LAPI's decision, and says so.
      const unban = await pbx.call(`${V3}firewall:unbanIp`, { method: 'POST', body: { ip: '198.51.100.20' } });
      assert.equal(unban.status, 200, unban.text);
      assert.equal(unban.json.data.lifted, 0);
      assert.match(
        unban.json.messages.warning.join(' '),
        /198\.51\.100\.20 stays banned by the upstream CrowdSec LAPI \(CAPI: crowdsecurity\/ssh-bf\): lift it there/,
      );
      assert.equal(pbx.server.services.firewall.bans.isBanned('198.51.100.20'), true);

      // "Ignore here" is the whitelist: it wins over upstream, and the ban leaves the list.
      const whitelisted = await pbx.call(`${V3}fail2ban`, { method: 'PATCH', body: { whitelist: '198.51.100.20' } });
      assert.equal(whitelisted.status, 200, whitelisted.text);
      assert.ok(!(await banned()).data.some((b) => b.ip === '198.51.100.20'));
      await pbx.call(`${V3}fail2ban`, { method: 'PATCH', body: { whitelist: '' } });
      // Pulling off: nothing upstream is enforced, so nothing is listed.
      await pbx.call(`${V3}crowdsec-link`, { method: 'PATCH', body: { pullEnabled: false } });
      const off = await banned();
      assert.deepEqual(
        off.data.map((b) => b.ip),
        ['192.0.2.99'],
      );
      assert.equal(off.pagination.total, 1);
      await pbx.call(`${V3}crowdsec-link`, { method: 'PATCH', body: { pullEnabled: true } });
      const local = await pbx.call(`${V3}firewall:unbanIp`, { method: 'POST', body: { ip: '192.0.2.99' } });
      assert.equal(local.json.data.lifted, 1);
      assert.deepEqual(local.json.messages, [], 'a local ban lifted: no upstream notice');
    });

    test('100,000 upstream decisions are enforced without holding the event loop, then republished to this PBX’s bouncers', async () => {
      const count = 100_000;
      const decisions = Array.from({ length: count }, (_, i) =>
        decision(1000 + i, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`),
      );
      const body = JSON.stringify({ new: decisions, deleted: [] });
      answer = (req, res) => res.end(req.url?.includes('startup=true') ? body : '{"new":null,"deleted":null}');
      const key = createTestApiKey(pbx.server.services.db).key;
      await poll(pbx, key, '?startup=true');
      // Make the next poll a full (startup) one, as after a restart.
      const saved = await pbx.call(`${V3}crowdsec-link`, { method: 'PATCH', body: { pullIntervalSeconds: 2 } });
      assert.equal(saved.status, 200);
      // Between two turns of the event loop, the guard's count: applied in slices, it is seen
      // part-way many times (applied in one go, the loop would not turn until all were in).
      const seenPartWay = new Set<number>();
      let sampling = true;
      const sample = () => {
        const held = pbx.server.services.firewall.bans.upstreamCount;
        if (held > 0 && held < count) seenPartWay.add(held);
        if (sampling) setTimeout(sample, 1);
      };
      sample();
      await waitFor(60_000, 'every decision held', async () => {
        await pbx.call(`${V3}system:ping`);
        return pbx.server.services.firewall.bans.upstreamCount >= count;
      });
      sampling = false;
      // The export takes them in paced slices after the guard has them.
      const served = await waitFor(30_000, 'every decision in the export', async () => {
        const answer = await poll(pbx, key);
        return answer.new.filter((d) => d.origin === 'cscli').length >= count ? answer : undefined;
      });
      console.log(`# 100k upstream decisions: the event loop turned at ${seenPartWay.size} counts part-way`);
      assert.ok(served.new.filter((d) => d.origin === 'cscli').length >= count);
      assert.equal(pbx.server.services.firewall.bans.isBanned('10.0.1.2'), true);
      // Slices of 1,000: the loop turns between them (bench/crowdsec-link.ts reports the stalls in ms).
      assert.ok(seenPartWay.size >= 3, `the loop turned at only ${seenPartWay.size} counts part-way`);
    });
  },
);
