import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startCrowdsecLapi, type CrowdsecLapi } from './support/crowdsec-lapi.ts';
import { soakSize } from '../src-server/test-support/soak.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { poll, type Decision } from '../src-server/test-support/bouncer.ts';
import { freePort } from '../src-server/test-support/tls.ts';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';

/**
 * The outage: past the link's retry backoff cap several times over, with a restart inside it. npm test shortens
 * the cap to 1 s (config `linkRetryMaxMs`) and lives a 3 s outage; the soak lane keeps the product's 10 s cap
 * and holds it 60 s.
 */
const OUTAGE_SECONDS = soakSize(3, 60);
const RETRY_MAX_MS = soakSize(1000, 10_000);
const V3 = '/pbxcore/api/v3/';
const ADMIN_PASSWORD = 'lapi test admin password';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DEADLINE_MS = 30_000;

/**
 * Polls `check` every 100 ms until it returns a truthy value; returns the value and when it came.
 * The deadline only ends a test that would never pass: how soon a change propagates (about a pull
 * interval; target 2 s) is printed, not asserted, since a loaded machine is slow for reasons of its own.
 */
async function within<T>(
  what: string,
  check: () => T | Promise<T>,
): Promise<{ value: NonNullable<T>; afterMs: number }> {
  const start = Date.now();
  let last: T | undefined;
  while (Date.now() - start <= DEADLINE_MS) {
    last = await check();
    if (last) return { value: last as NonNullable<T>, afterMs: Date.now() - start };
    await sleep(100);
  }
  assert.fail(`${what}: not so after ${DEADLINE_MS} ms (last: ${JSON.stringify(last)})`);
}

interface Site {
  name: string;
  pbx: TestServer;
  /** A bouncer key of this PBX's own export, and what its stream served so far. */
  key: string;
  served: Map<string, Decision>;
}

/** Polls the site's own export like a bouncer and keeps its view (new adds, deleted removes). */
async function bouncerView(site: Site): Promise<Map<string, Decision>> {
  const answer = await poll(site.pbx, site.key);
  for (const d of answer.deleted) site.served.delete(`${d.value} ${d.scenario}`);
  for (const d of answer.new) site.served.set(`${d.value} ${d.scenario}`, d);
  return site.served;
}

const status = async (site: Site) => (await site.pbx.call(`${V3}crowdsec-link:getStatus`)).json.data;
const ping = (site: Site, from: string) => site.pbx.call(`${V3}system:ping`, { localAddress: from });

async function linkSite(lapi: CrowdsecLapi, name: string): Promise<Site> {
  const password = `${name}-machine-password`;
  const bouncerKey = `${name}-bouncer-key-0123456789abcdef`;
  lapi.addMachine(name, password);
  lapi.addBouncer(name, bouncerKey);
  const pbx = await startTestServer({ adminPassword: ADMIN_PASSWORD, linkRetryMaxMs: RETRY_MAX_MS });
  const rules = await pbx.call(`${V3}fail2ban`, { method: 'PATCH', body: { maxretry: 3 } });
  assert.equal(rules.status, 200, rules.text);
  const saved = await pbx.call(`${V3}crowdsec-link`, {
    method: 'PUT',
    body: {
      enabled: true,
      url: lapi.url,
      siteName: name,
      machineLogin: name,
      machinePassword: password,
      pullEnabled: true,
      bouncerKey,
      pullIntervalSeconds: 1,
    },
  });
  assert.equal(saved.status, 200, saved.text);
  const site: Site = { name, pbx, key: createTestApiKey(pbx.server.services.db).key, served: new Map() };
  await poll(pbx, site.key, '?startup=true');
  return site;
}

describe('two PBX sites linked through the real CrowdSec LAPI', { timeout: 240_000 }, () => {
  let lapi: CrowdsecLapi;
  let a: Site;
  let b: Site;

  before(async () => {
    lapi = await startCrowdsecLapi();
    a = await linkSite(lapi, 'site-a');
    b = await linkSite(lapi, 'site-b');
    await within('both links connected', async () => (await status(a)).connected && (await status(b)).connected);
  });
  after(async () => {
    await a?.pbx.close();
    await b?.pbx.close();
    await lapi?.close();
  });

  test(
    'three failed logins on A: banned on A, in the LAPI, enforced by B and in its stream (time ' +
      'printed); A does not echo it back',
    async () => {
      const attacker = '127.0.0.2';
      for (let i = 0; i < 3; i++) {
        const failed = await a.pbx.call(`${V3}auth:login`, {
          method: 'POST',
          body: { login: 'admin', password: `wrong-${i}` },
          localAddress: attacker,
        });
        assert.equal(failed.status, 401);
      }
      const bannedAt = Date.now();
      assert.equal((await ping(a, attacker)).status, 403, 'banned on A');
      const inLapi = await within('decision in the LAPI', () => lapi.decisions().find((d) => d.value === attacker));
      assert.equal(inLapi.value.scenario, 'pbx/http');
      assert.equal(inLapi.value.origin, 'crowdsec');
      await within('B refuses the attacker', async () => (await ping(b, attacker)).status === 403);
      const inB = await within("B's stream", async () => (await bouncerView(b)).get(`${attacker} pbx/http`));
      assert.equal(inB.value.origin, 'crowdsec', 'republished with its upstream origin');
      console.log(`# A ban reached B's guard and stream ${Date.now() - bannedAt} ms after it was made`);
      // A's own stream has its own decision once: the copy coming back from the LAPI is skipped.
      await within('the copy coming back is skipped as an echo', async () => (await status(a)).pull.skipped.echo >= 1);
      const ownA = [...(await bouncerView(a)).values()].filter((d) => d.value === attacker);
      assert.deepEqual(
        ownA.map((d) => d.origin),
        ['pbx-fail2ban'],
      );
      assert.ok((await status(a)).pull.skipped.echo >= 1);
    },
  );

  test('lifting the ban on A lifts it in the LAPI, on B and in B’s stream (time printed)', async () => {
    const attacker = '127.0.0.2';
    const lifted = await a.pbx.call(`${V3}firewall:unbanIp`, { method: 'POST', body: { ip: attacker } });
    assert.equal(lifted.status, 200, lifted.text);
    const start = Date.now();
    await within('gone from the LAPI', () => !lapi.decisions().some((d) => d.value === attacker));
    await within('B serves the address again', async () => (await ping(b, attacker)).status === 200);
    await within("B's stream deleted it", async () => !(await bouncerView(b)).has(`${attacker} pbx/http`));
    console.log(`# A lift reached the LAPI, B's guard and its stream ${Date.now() - start} ms after it was made`);
    assert.equal((await ping(a, attacker)).status, 200);
  });

  test('cscli decisions add reaches A and B; their whitelist and loopback win; Country scope is skipped and counted', async () => {
    const whitelist = await b.pbx.call(`${V3}fail2ban`, { method: 'PATCH', body: { whitelist: '127.0.0.4' } });
    assert.equal(whitelist.status, 200, whitelist.text);
    lapi.cscli('decisions', 'add', '-i', '127.0.0.3', '-d', '1h');
    lapi.cscli('decisions', 'add', '-i', '127.0.0.4', '-d', '1h');
    lapi.cscli('decisions', 'add', '-i', '127.0.0.1', '-d', '1h');
    lapi.cscli('decisions', 'add', '--scope', 'Country', '--value', 'FR', '-d', '1h');
    for (const site of [a, b]) {
      await within(`${site.name} refuses 127.0.0.3`, async () => (await ping(site, '127.0.0.3')).status === 403);
      const d = (await bouncerView(site)).get("127.0.0.3 manual 'ban' from 'cscli-admin'");
      assert.equal(d?.origin, 'cscli');
      assert.equal((await ping(site, '127.0.0.1')).status, 200, 'loopback is never banned');
      assert.equal((await ping(site, '127.0.0.5')).status, 200, 'a Country decision bans nothing here');
      assert.ok(!(await bouncerView(site)).has("127.0.0.1 manual 'ban' from 'cscli-admin'"));
      await within(
        `${site.name} counts the Country decision as skipped`,
        async () => (await status(site)).pull.skipped['scope:Country'] === 1,
      );
    }
    assert.equal((await ping(a, '127.0.0.4')).status, 403, 'A has no whitelist entry for it');
    assert.equal((await ping(b, '127.0.0.4')).status, 200, "B's whitelist wins");
    assert.ok(!(await bouncerView(b)).has("127.0.0.4 manual 'ban' from 'cscli-admin'"));
    assert.ok((await status(b)).pull.skipped.protected >= 1);
    // The Bans page lists what each site enforces of it, marked upstream and not liftable there.
    const listed = async (site: Site) =>
      new Map(
        ((await site.pbx.call(`${V3}firewall:getBannedIps`)).json.data as Array<{ ip: string; upstream?: unknown }>)
          .filter((ban) => ban.upstream)
          .map((ban) => [ban.ip, ban.upstream]),
      );
    const upstream = { origin: 'cscli', scenario: "manual 'ban' from 'cscli-admin'", liftable: false };
    const [onA, onB] = [await listed(a), await listed(b)];
    assert.deepEqual(onA.get('127.0.0.3'), upstream);
    assert.deepEqual(onA.get('127.0.0.4'), upstream);
    assert.deepEqual(onB.get('127.0.0.3'), upstream);
    assert.ok(!onB.has('127.0.0.4') && !onA.has('127.0.0.1'), 'protected values are not listed');
  });

  test(`with the LAPI stopped for ${OUTAGE_SECONDS} s (and A restarted meanwhile), bans made meanwhile arrive after, each exactly once`, async () => {
    await lapi.stop();
    const stoppedAt = Date.now();
    const during = ['192.0.2.61', '192.0.2.62', '192.0.2.63'];
    const bans = a.pbx.server.services.firewall.bans;
    bans.ban('sip', during[0]!, 'outage test', 3600);
    const { value: down } = await within('A reports the LAPI down', async () => {
      const s = await status(a);
      return s.state === 'error' && /unreachable/.test(s.lastError ?? '') ? s : undefined;
    });
    assert.match(down.lastError, /unreachable/);
    assert.equal((await ping(a, '127.0.0.1')).status, 200, 'A keeps serving while the LAPI is down');
    await a.pbx.restart();
    a.pbx.server.services.firewall.bans.ban('sip', during[1]!, 'outage test', 3600);
    a.pbx.server.services.firewall.bans.ban('ami', during[2]!, 'outage test', 3600);
    assert.equal((await status(a)).queueLength, 3);
    await sleep(Math.max(0, OUTAGE_SECONDS * 1000 - (Date.now() - stoppedAt)));
    await lapi.start();
    const back = Date.now();
    await within('the queued bans reach the LAPI', () =>
      during.every((ip) => lapi.decisions().some((d) => d.value === ip)),
    );
    console.log(`# queued bans arrived ${Date.now() - back} ms after the LAPI came back`);
    // Once A's queue is empty every queued push has been acknowledged: nothing more can arrive after that.
    await within('A connected again, queue empty', async () => {
      const s = await status(a);
      return s.connected && s.queueLength === 0;
    });
    for (const ip of during)
      assert.equal(lapi.decisions().filter((d) => d.value === ip).length, 1, `${ip} exactly once`);
    await within('B enforces them', async () => (await bouncerView(b)).has(`${during[2]} pbx/ami`));
  });

  test('wrong credentials, an unreachable URL and a LAPI answering 5xx each show a clear state; the PBX keeps serving', async () => {
    const failing: Server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"message":"database is locked"}');
    });
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', () => r()));
    const deadPort = await freePort();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'wrong credentials',
        { url: lapi.url, machinePassword: 'not-the-password', bouncerKey: 'not-the-bouncer-key' },
        /refused/,
      ],
      ['unreachable URL', { url: `http://127.0.0.1:${deadPort}/` }, /unreachable/],
      ['5xx', { url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/` }, /503/],
    ];
    try {
      for (const [name, body, reason] of cases) {
        const saved = await b.pbx.call(`${V3}crowdsec-link`, { method: 'PATCH', body });
        assert.equal(saved.status, 200, saved.text);
        b.pbx.server.services.firewall.bans.ban('iax', '192.0.2.99', name, 600);
        const shown = await within(`${name} shown`, async () => {
          const s = await status(b);
          const both =
            s.state === 'error' && reason.test(s.push.lastError ?? '') && reason.test(s.pull.lastError ?? '');
          return both && s.push.state === 'error' && s.pull.state === 'error' ? s : undefined;
        });
        assert.match(shown.value.lastError, reason, name);
        assert.equal(shown.value.connected, false);
        assert.equal((await ping(b, '127.0.0.1')).status, 200, `${name}: B keeps serving while its link fails`);
        b.pbx.server.services.firewall.bans.reloadIp('192.0.2.99');
      }
    } finally {
      failing.close();
    }
  });
});
