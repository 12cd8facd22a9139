import assert from 'node:assert/strict';
import { after, before, describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPEAT_POLLS } from '../src-server/firewall/export/index.ts';
import { createTestApiKey } from '../src-server/test-support/api-keys.ts';
import { banThroughFailures, createFilter, type Decision } from '../src-server/test-support/bouncer.ts';
import { startTestServer, type TestServer } from '../src-server/test-support/server.ts';
import { startNpmBouncer, type NpmBouncer, type NpmBouncerOptions } from './support/npm-bouncer.ts';

/**
 * The CrowdSec Node.js bouncer published on npm (`@crowdsec/nodejs-bouncer`), unmodified, against
 * the firewall export over real HTTP: stream mode (`/v1/decisions/stream`, the client's own cache)
 * and live mode (`/v1/decisions?ip=`). Its logger's output is read whole: no warning, no error.
 */
const PERMIT = '192.0.2.0/24';

const has = (list: Decision[] | null, value: string, scenario = 'pbx/manual') =>
  (list ?? []).some((d) => d.value === value && d.scenario === scenario);

describe('@crowdsec/nodejs-bouncer (npm) against the firewall export', { timeout: 120_000 }, () => {
  let server: TestServer;
  let baseUrl: string;
  before(async () => {
    server = await startTestServer();
    // No trailing "/": the client appends "/v1/decisions..." itself.
    baseUrl = `${server.url}/pbxcore/api/v3/firewall-bouncer`;
  });
  after(() => server.close());

  /** The client with a fresh key, stopped (and checked for warnings) when the test ends. */
  async function startBouncer(t: TestContext, options: Omit<NpmBouncerOptions, 'url' | 'apiKey'>): Promise<NpmBouncer> {
    const { key } = createTestApiKey(server.server.services.db, { description: `npm bouncer ${t.name}` });
    const bouncer = await startNpmBouncer({ url: baseUrl, apiKey: key, ...options });
    t.after(() => bouncer.stop());
    return bouncer;
  }

  /** The client's start-up health check (HEAD /v1/decisions) is logged once it answered. */
  async function waitHealthy(bouncer: NpmBouncer): Promise<void> {
    for (let i = 0; i < 50 && !bouncer.logs().some((l) => l.msg === 'Connection with LAPI is healthy'); i++)
      await sleep(100);
    assert.ok(
      bouncer.logs().some((l) => l.msg === 'Connection with LAPI is healthy'),
      `no health line in ${JSON.stringify(bouncer.logs())}`,
    );
  }

  /**
   * Waits until the export publishes (or no longer publishes) `value` under `scenario`, read with
   * GET /v1/decisions (which moves no cursor): a filter change reaches the snapshot asynchronously.
   */
  async function waitPublished(value: string, present = true, scenario = 'pbx/manual'): Promise<void> {
    const { key } = createTestApiKey(server.server.services.db, { description: 'observer' });
    for (let i = 0; i < 100; i++) {
      const response = await server.call('/pbxcore/api/v3/firewall-bouncer/v1/decisions', {
        headers: { 'X-Api-Key': key },
      });
      if (has(response.json as Decision[], value, scenario) === present) return;
      await sleep(50);
    }
    throw new Error(`${value} ${scenario} never became ${present ? 'published' : 'unpublished'}`);
  }

  function assertQuiet(bouncer: NpmBouncer): void {
    assert.deepEqual(bouncer.problems(), [], 'the client logged a warning or an error');
    assert.ok(
      bouncer.exchanges().every((e) => e.status === 200),
      `a request failed: ${JSON.stringify(bouncer.exchanges().map((e) => [e.url, e.status]))}`,
    );
  }

  test('stream mode: filter entries (address and range), manual and intrusion bans are held and answered ban', async (t) => {
    const filter = await createFilter(server, { permit: PERMIT, deny: '203.0.113.0/24,198.51.100.7' });
    t.after(() => server.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' }));
    assert.equal(
      (await server.call('/pbxcore/api/v3/firewall:banIp', { method: 'POST', body: { ip: '198.18.1.5' } })).status,
      201,
    );
    t.after(() => server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.18.1.5' } }));
    banThroughFailures(server, 'sip', '198.18.2.6');
    t.after(() => server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.18.2.6' } }));
    await waitPublished('198.51.100.7');

    const bouncer = await startBouncer(t, { streamMode: true });
    const first = await bouncer.refresh();
    assert.ok(
      bouncer.exchanges().some((e) => e.url.endsWith('/v1/decisions/stream?startup=true')),
      'the first poll asks startup=true',
    );
    assert.ok(
      has(first.answer.new, '203.0.113.0/24') && has(first.answer.new, '198.51.100.7'),
      'filter entries served',
    );
    assert.ok(has(first.answer.new, '198.18.1.5') && has(first.answer.new, '198.18.2.6', 'pbx/sip'), 'bans served');
    const stored = first.stored.map((d) => d.id);
    for (const id of [
      'pbx-networkfilters-ban-range-203.0.113.0/24',
      'pbx-networkfilters-ban-ip-198.51.100.7',
      'pbx-networkfilters-ban-ip-198.18.1.5',
      'pbx-fail2ban-ban-ip-198.18.2.6',
    ]) {
      assert.ok(stored.includes(id), `${id} stored, got ${JSON.stringify(stored)}`);
    }

    for (const ip of ['203.0.113.77', '198.51.100.7', '198.18.1.5', '198.18.2.6'])
      assert.equal(await bouncer.remediation(ip), 'ban', ip);
    for (const ip of ['198.51.100.8', '203.0.114.1', '198.18.2.7'])
      assert.equal(await bouncer.remediation(ip), 'bypass', ip);
    await waitHealthy(bouncer);
    assertQuiet(bouncer);
  });

  test('stream mode: repeated deletions and deletions never received are ignored quietly; adds in the same answers land', async (t) => {
    const bouncer = await startBouncer(t, { streamMode: true });
    const removedFirst = await createFilter(server, { permit: PERMIT, deny: '198.51.100.10' });
    const kept = await createFilter(server, { permit: PERMIT, deny: '198.51.100.20' });
    t.after(() => server.call(`/pbxcore/api/v3/firewall/${kept.id}`, { method: 'DELETE' }));
    await waitPublished('198.51.100.20');
    await bouncer.refresh();
    assert.equal(await bouncer.remediation('198.51.100.10'), 'ban');

    // One answer: .10 deleted, .11 new.
    await server.call(`/pbxcore/api/v3/firewall/${removedFirst.id}`, { method: 'DELETE' });
    const added11 = await createFilter(server, { permit: PERMIT, deny: '198.51.100.11' });
    t.after(() => server.call(`/pbxcore/api/v3/firewall/${added11.id}`, { method: 'DELETE' }));
    await waitPublished('198.51.100.10', false);
    await waitPublished('198.51.100.11');
    const answers = [await bouncer.refresh()];
    assert.ok(has(answers[0]!.answer.deleted, '198.51.100.10') && has(answers[0]!.answer.new, '198.51.100.11'));
    assert.equal(await bouncer.remediation('198.51.100.10'), 'bypass', 'the deletion applied');
    assert.equal(await bouncer.remediation('198.51.100.11'), 'ban', 'the add in the same answer applied');

    // Between two polls: .12 added and removed (never served to this key), .13 added.
    const transient = await createFilter(server, { permit: PERMIT, deny: '198.51.100.12' });
    await waitPublished('198.51.100.12');
    await server.call(`/pbxcore/api/v3/firewall/${transient.id}`, { method: 'DELETE' });
    await waitPublished('198.51.100.12', false);
    const added13 = await createFilter(server, { permit: PERMIT, deny: '198.51.100.13' });
    t.after(() => server.call(`/pbxcore/api/v3/firewall/${added13.id}`, { method: 'DELETE' }));
    // Also a value that stays blocked under another scenario: an intrusion ban on .20, then its filter entry goes.
    banThroughFailures(server, 'sip', '198.51.100.20');
    t.after(() => server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.51.100.20' } }));
    await waitPublished('198.51.100.13');
    await waitPublished('198.51.100.20', true, 'pbx/sip');
    answers.push(await bouncer.refresh());
    const second = answers[1]!;
    assert.ok(has(second.answer.new, '198.51.100.13') && has(second.answer.new, '198.51.100.20', 'pbx/sip'));
    assert.ok(has(second.answer.deleted, '198.51.100.10'), 'the deletion is repeated');
    assert.ok(has(second.answer.deleted, '198.51.100.12'), 'a decision this key never received is listed as deleted');
    assert.ok(
      second.removed.some((d) => d.id === 'pbx-networkfilters-ban-ip-198.51.100.12'),
      'the client read that deletion',
    );
    await server.call(`/pbxcore/api/v3/firewall/${kept.id}`, { method: 'DELETE' });
    await waitPublished('198.51.100.20', false);

    // Further polls: the repeats go on, and each answer also brings one add.
    const later = [];
    for (let i = 0; i < REPEAT_POLLS; i++) {
      const filter = await createFilter(server, { permit: PERMIT, deny: `198.51.100.${30 + i}` });
      t.after(() => server.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' }));
      await waitPublished(`198.51.100.${30 + i}`);
      const answer = await bouncer.refresh();
      assert.ok(has(answer.answer.new, `198.51.100.${30 + i}`));
      assert.equal(
        await bouncer.remediation(`198.51.100.${30 + i}`),
        'ban',
        `the add beside the repeated deletions (poll ${i + 3})`,
      );
      later.push(answer);
    }
    answers.push(...later);

    const carrying10 = answers.filter((a) => has(a.answer.deleted, '198.51.100.10')).length;
    assert.equal(carrying10, REPEAT_POLLS, `the deletion of .10 was carried by ${REPEAT_POLLS} answers`);
    assert.ok(!has(answers.at(-1)!.answer.deleted, '198.51.100.10'), 'and then no more');
    assert.ok(
      answers.every((a) => !(a.answer.new ?? []).some((n) => has(a.answer.deleted, n.value, n.scenario))),
      'never new and deleted at once',
    );

    for (const ip of ['198.51.100.10', '198.51.100.12']) assert.equal(await bouncer.remediation(ip), 'bypass', ip);
    for (const ip of ['198.51.100.11', '198.51.100.13', '198.51.100.20'])
      assert.equal(await bouncer.remediation(ip), 'ban', ip);
    assert.ok(
      answers.some((a) => has(a.answer.deleted, '198.51.100.20')),
      'the filter entry of .20 was deleted while its intrusion ban stays (and the client still answers ban)',
    );
    const carrying12 = answers.filter((a) => has(a.answer.deleted, '198.51.100.12')).length;
    t.diagnostic(
      `deletion of .10 carried by ${carrying10} answers, of the never-received .12 by ${carrying12}; ${bouncer.logs().length} log lines`,
    );
    // The client noticed the deletions it had nothing for, and said so only at debug level.
    const notInCache = bouncer.logs().filter((l) => l.msg.startsWith('Decision to remove is not in cache'));
    assert.ok(notInCache.some((l) => l.msg.endsWith('pbx-networkfilters-ban-ip-198.51.100.12') && l.level === 20));
    assert.ok(
      notInCache.filter((l) => l.msg.endsWith('pbx-networkfilters-ban-ip-198.51.100.10')).length >= REPEAT_POLLS - 1,
    );
    await waitHealthy(bouncer);
    assertQuiet(bouncer);
  });

  test('live mode: a /24 range ban answers ban for an address inside it, and its lifting reaches the client', async (t) => {
    assert.equal(
      (await server.call('/pbxcore/api/v3/firewall:banIp', { method: 'POST', body: { ip: '198.18.7.0/24' } })).status,
      201,
    );
    t.after(() => server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.18.7.0/24' } }));
    const filter = await createFilter(server, { permit: PERMIT, deny: '198.51.100.50' });
    t.after(() => server.call(`/pbxcore/api/v3/firewall/${filter.id}`, { method: 'DELETE' }));
    banThroughFailures(server, 'sip', '198.18.9.9');
    t.after(() => server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.18.9.9' } }));
    assert.equal(
      (await server.call('/pbxcore/api/v3/firewall:banIp', { method: 'POST', body: { ip: '2001:db8:5::/64' } })).status,
      201,
    );
    t.after(() => server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '2001:db8:5::/64' } }));
    await waitPublished('198.51.100.50');

    // Cache verdicts for 1 s so the lifting is asked again.
    const bouncer = await startBouncer(t, { streamMode: false, badIpCacheDuration: 1, cleanIpCacheDuration: 1 });
    assert.equal(await bouncer.remediation('198.18.7.9'), 'ban', 'inside the banned /24');
    const asked = bouncer.exchanges().find((e) => e.url.includes('/v1/decisions?ip=198.18.7.9'));
    assert.ok(asked, 'live mode asks the export for the address');
    assert.deepEqual(
      (JSON.parse(asked.body) as Decision[]).map((d) => [d.scope, d.value]),
      [['Range', '198.18.7.0/24']],
    );
    assert.equal(await bouncer.remediation('198.18.8.9'), 'bypass', 'outside it');
    assert.equal(await bouncer.remediation('198.51.100.50'), 'ban', 'a filter entry');
    assert.equal(await bouncer.remediation('198.18.9.9'), 'ban', 'an intrusion ban');
    assert.equal(await bouncer.remediation('2001:db8:5::1'), 'ban', 'inside a banned IPv6 /64');
    assert.equal(await bouncer.remediation('2001:db8:6::1'), 'bypass', 'outside it');
    assert.ok(
      !bouncer.exchanges().some((e) => e.url.includes('/v1/decisions/stream')),
      'live mode never reads the stream',
    );

    assert.equal(
      (await server.call('/pbxcore/api/v3/firewall:unbanIp', { method: 'POST', body: { ip: '198.18.7.0/24' } })).status,
      200,
    );
    await waitPublished('198.18.7.0/24', false);
    await sleep(1100);
    assert.equal(await bouncer.remediation('198.18.7.9'), 'bypass', 'lifted');
    await waitHealthy(bouncer);
    assertQuiet(bouncer);
  });

  test('a url with a trailing "/" is refused loudly: the client asks for //v1/..., gets 404 and logs an error', async (t) => {
    const { key } = createTestApiKey(server.server.services.db, { description: 'npm bouncer trailing slash' });
    const bouncer = await startNpmBouncer({ url: `${baseUrl}/`, apiKey: key, streamMode: true });
    t.after(() => bouncer.stop());
    await assert.rejects(bouncer.refresh(), /Call to v1\/decisions\/stream\?startup=true failed/);
    for (let i = 0; i < 50 && bouncer.problems().length === 0; i++) await sleep(100);
    assert.deepEqual(
      bouncer.problems().map((l) => l.msg),
      ['Connection with LAPI is unhealthy: UNEXPECTED_STATUS'],
    );
    assert.ok(bouncer.exchanges().every((e) => e.url.includes('/firewall-bouncer//v1/') && e.status === 404));
  });
});
