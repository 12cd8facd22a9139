import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { BOUNCER_PATHS, createTestApiKey } from '../test-support/api-keys.ts';
import { AmiTestServer } from '../test-support/ami-server.ts';
import { poll, STREAM } from '../test-support/bouncer.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { PULL_FROM_NOWHERE } from '../test-support/crowdsec-link.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import { waitUntil } from '../test-support/wait.ts';
import type { HealthCheckState } from '../wire/types.ts';
import { FIRST_REMINDER_MS } from './health-board.ts';

const V3 = '/pbxcore/api/v3';
const FEED = `${V3}/firewall-bouncer/blocklist`;
const WARN = 40;
const ERROR = 50;
const INFO = 30;
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A server on a hand-moved clock, its health events and its terminal lines. */
async function healthServer(startAt?: number) {
  const clock = new ManualClock(startAt);
  const logs = captureLogs('info');
  const t = await startTestServer({ clock, logger: logs.logger, logLevel: 'info' });
  const events: HealthCheckState[] = [];
  t.server.services.bus.on('health-changed', (event) => events.push(event.check));
  const evaluate = () => t.server.services.health.evaluate();
  const healthLines = () => logs.lines.filter((line) => line.msg.startsWith('health'));
  return { t, clock, logs, events, evaluate, healthLines };
}

const getHealth = async (t: TestServer) => {
  const answer = await t.call(`${V3}/system:getHealth`);
  assert.equal(answer.status, 200, answer.text);
  return answer.json.data as { checks: Array<Record<string, unknown>> };
};

const feedFetch = (t: TestServer, key: string) =>
  t.call(`${FEED}?format=plain_text`, { headers: { 'X-Api-Key': key } });

describe('health checks', () => {
  it('a bouncer silent for three of its intervals: one line by name, a reminder after 10 min, one line when back', async () => {
    const { t, clock, events, evaluate, healthLines } = await healthServer();
    try {
      const { id, key } = createTestApiKey(t.server.services.db, { description: 'edge firewall' });
      await poll(t, key, '?startup=true');
      evaluate();
      for (let i = 0; i < 3; i++) {
        clock.advance(10_000);
        await poll(t, key);
        evaluate();
      }
      clock.advance(29_000);
      evaluate();
      assert.equal(events.length, 0, 'within three 10 s intervals: nothing');
      clock.advance(2_000);
      evaluate();
      assert.equal(events.length, 1);
      assert.equal(events[0]!.id, `bouncer-silent:${id}`);
      assert.equal(events[0]!.state, 'failing');
      assert.match(events[0]!.title, /^Bouncer "edge firewall" has not polled for 3 of its intervals \(every 10 s\)$/);
      const shown = await getHealth(t);
      assert.equal(shown.checks.length, 1);
      assert.equal(shown.checks[0]!.kind, 'bouncer-silent');
      assert.equal(shown.checks[0]!.action, 'API keys › edge firewall');
      assert.equal(shown.checks[0]!.area, 'api-keys');

      // Evaluated every 15 s for 10 min: one reminder, at 10 min, not one line per tick.
      for (let elapsed = 0; elapsed < FIRST_REMINDER_MS + 60_000; elapsed += 15_000) {
        clock.advance(15_000);
        evaluate();
      }
      assert.equal(events.length, 2);
      assert.equal(events[1]!.reminder, true);
      assert.ok(events[1]!.failedForMs! >= FIRST_REMINDER_MS);

      await poll(t, key);
      evaluate();
      assert.equal(events.length, 3);
      assert.equal(events[2]!.state, 'ok');
      assert.equal(events[2]!.title, 'Bouncer "edge firewall" polls again');
      assert.ok(events[2]!.failedForMs! > FIRST_REMINDER_MS);
      assert.deepEqual((await getHealth(t)).checks, []);

      await settle();
      const lines = healthLines().map((line) => [line.level, line.msg]);
      assert.deepEqual(lines, [
        [WARN, 'health: Bouncer "edge firewall" has not polled for 3 of its intervals (every 10 s)'],
        [
          WARN,
          'health still failing (10 min): Bouncer "edge firewall" has not polled for 3 of its intervals (every 10 s)',
        ],
        [INFO, 'health ok after 11 min: Bouncer "edge firewall" polls again'],
      ]);
      assert.ok(
        healthLines().every((line) => !line.msg.includes(`#${id}`)),
        'the key by its name, never its number',
      );
    } finally {
      await t.close();
    }
  });

  it('judges a slow bouncer by its own interval: polls every 60 s are silent after 3 min, not 30 s', async () => {
    const { t, clock, events, evaluate } = await healthServer();
    try {
      const { key } = createTestApiKey(t.server.services.db, { description: 'slow one' });
      await poll(t, key, '?startup=true');
      evaluate();
      for (let i = 0; i < 2; i++) {
        clock.advance(60_000);
        await poll(t, key);
        evaluate();
      }
      clock.advance(170_000);
      evaluate();
      assert.equal(events.length, 0);
      clock.advance(20_000);
      evaluate();
      assert.equal(events.length, 1);
      assert.match(events[0]!.title, /^Bouncer "slow one" has not polled for 3 of its intervals \(every 1 min\)$/);
    } finally {
      await t.close();
    }
  });

  it('a router feed fetch is the key poll: status shows it served, silence is three of its feed interval (settable)', async () => {
    // Workers read the real time: the fetch happens 12 minutes ago on the server's clock.
    const { t, clock, events, evaluate } = await healthServer(Date.now() - 12 * 60_000);
    try {
      const { id, key } = createTestApiKey(t.server.services.db, { description: 'office mikrotik' });
      const fetched = await feedFetch(t, key);
      assert.equal(fetched.status, 200, fetched.text);
      clock.advance(12 * 60_000);
      evaluate();
      const status = await t.call(`${V3}/firewall:getBouncerStatus`);
      const bouncer = (status.json.data.bouncers as Array<Record<string, unknown>>).find((b) => b.keyId === id)!;
      assert.equal(bouncer.state, 'served', '12 min after a fetch of a 5-minute feed: served, not "never"');
      assert.notEqual(bouncer.lastPollAt, null);
      assert.equal(bouncer.polls, 1);
      assert.equal(events.length, 0);

      clock.advance(3 * 60_000 + 1_000);
      evaluate();
      assert.equal(events.length, 1);
      assert.equal(events[0]!.kind, 'feed-not-fetched');
      assert.equal(
        events[0]!.title,
        'Router feed "office mikrotik" has not been fetched for 3 of its 5-minute intervals',
      );

      assert.equal((await feedFetch(t, key)).status, 200);
      evaluate();
      assert.equal(events.at(-1)!.state, 'ok');
      assert.equal(events.at(-1)!.title, 'Router feed "office mikrotik" is fetched again');

      // A router fetching every 10 min: the key says so, and 16 min of quiet is no failure.
      const patched = await t.call(`${V3}/api-keys/${id}`, {
        method: 'PATCH',
        body: { description: 'office mikrotik', feed_interval_minutes: 10 },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.data.feed_interval_minutes, 10);
      const before = events.length;
      clock.advance(16 * 60_000);
      evaluate();
      assert.equal(events.length, before);
      clock.advance(15 * 60_000);
      evaluate();
      assert.equal(events.at(-1)!.kind, 'feed-not-fetched');
      assert.match(events.at(-1)!.title, /3 of its 10-minute intervals/);

      const refused = await t.call(`${V3}/api-keys/${id}`, {
        method: 'PATCH',
        body: { description: 'office mikrotik', feed_interval_minutes: 0 },
      });
      assert.equal(refused.status, 422, refused.text);
      assert.match(refused.text, /feed_interval_minutes/);
    } finally {
      await t.close();
    }
  });

  it('no consumer while bans are in force (critical), and a key refused on every attempt, by name', async () => {
    const { t, clock, events, evaluate, healthLines } = await healthServer();
    try {
      const banned = await t.call(`${V3}/firewall:banIp`, {
        method: 'POST',
        body: { ip: '203.0.113.50', reason: 'test' },
      });
      assert.equal(banned.status, 201, banned.text);
      await waitUntil('the ban is read in', () => t.server.services.firewall.bans.isBanned('203.0.113.50'));
      clock.advance(14 * 60_000);
      evaluate();
      assert.deepEqual(
        events.map((e) => e.kind),
        [],
      );
      clock.advance(2 * 60_000);
      evaluate();
      assert.deepEqual(
        events.map((e) => [e.kind, e.state, e.severity]),
        [['no-consumer', 'failing', 'critical']],
      );
      const { id, key } = createTestApiKey(t.server.services.db, {
        description: 'branch fw',
        allowedPaths: BOUNCER_PATHS,
      });
      await poll(t, key, '?startup=true');
      evaluate();
      assert.deepEqual(
        events.slice(1).map((e) => [e.kind, e.state]),
        [['no-consumer', 'ok']],
      );

      const disabled = await t.call(`${V3}/api-keys/${id}`, {
        method: 'PATCH',
        body: { description: 'branch fw', enabled: false },
      });
      assert.equal(disabled.status, 200, disabled.text);
      for (let i = 0; i < 3; i++) {
        clock.advance(10_000);
        const answer = await t.call(STREAM, { headers: { 'X-Api-Key': key } });
        assert.equal(answer.status, 401);
        evaluate();
      }
      const refusedEvents = events.filter((e) => e.kind === 'key-refused');
      assert.equal(refusedEvents.length, 1, 'once, not once per refused poll');
      assert.match(
        refusedEvents[0]!.title,
        /^Key "branch fw" is refused on every attempt: .*disabled.* \(from 127\.0\.0\.1\)$/,
      );
      assert.ok(!events.some((e) => e.kind === 'bouncer-silent'), 'refused, not also silent');

      const enabled = await t.call(`${V3}/api-keys/${id}`, {
        method: 'PATCH',
        body: { description: 'branch fw', enabled: true },
      });
      assert.equal(enabled.status, 200, enabled.text);
      await poll(t, key);
      evaluate();
      assert.deepEqual(
        [events.at(-1)!.kind, events.at(-1)!.state, events.at(-1)!.title],
        ['key-refused', 'ok', 'Key "branch fw" is served again'],
      );
      await settle();
      const critical = healthLines().filter((line) => line.level === ERROR);
      assert.deepEqual(
        critical.map((line) => line.msg),
        [
          'health: Bans are in force but no bouncer or router has fetched them for 15 min',
          `health: ${refusedEvents[0]!.title}`,
        ],
      );
    } finally {
      await t.close();
    }
  });

  it('a bouncer left with an old key (rotated): refused on every attempt, named by the key that served it', async () => {
    const { t, clock, events, evaluate } = await healthServer();
    try {
      const { id, key } = createTestApiKey(t.server.services.db, { description: 'rotated fw' });
      await poll(t, key, '?startup=true');
      const rotated = await t.call(`${V3}/api-keys/${id}:rotate`, { method: 'POST', body: {} });
      assert.equal(rotated.status, 200, rotated.text);
      for (let i = 0; i < 3; i++) {
        clock.advance(10_000);
        assert.equal((await t.call(STREAM, { headers: { 'X-Api-Key': key } })).status, 401);
        evaluate();
      }
      const refused = events.filter((e) => e.id === 'key-refused:127.0.0.1');
      assert.equal(refused.length, 1, events.map((e) => e.title).join('\n'));
      assert.match(
        refused[0]!.title,
        /^The bouncer at 127\.0\.0\.1, last served with key "rotated fw" is refused on every attempt: .+ \(3 attempts\)$/,
      );
      assert.equal(refused[0]!.action, 'API keys › rotated fw: give the bouncer its key');
      await poll(t, rotated.json.data.key as string);
      evaluate();
      assert.deepEqual(
        [events.at(-1)!.id, events.at(-1)!.state, events.at(-1)!.title],
        ['key-refused:127.0.0.1', 'ok', 'The bouncer at 127.0.0.1 is no longer refused'],
      );
    } finally {
      await t.close();
    }
  });

  it('the LAPI link down: one line after a minute of failures, not one per retry; back when it is off', async () => {
    const { t, clock, events, evaluate, healthLines, logs } = await healthServer();
    try {
      const saved = await t.call(`${V3}/crowdsec-link`, { method: 'PUT', body: PULL_FROM_NOWHERE });
      assert.equal(saved.status, 200, saved.text);
      const link = t.server.services.crowdsecLink.status.status;
      await waitUntil('the pull fails', () => link.pull.state === 'error');
      evaluate();
      assert.equal(events.length, 0, 'one failed exchange is no news');
      for (let elapsed = 0; elapsed < 12 * 60_000; elapsed += 15_000) {
        clock.advance(15_000);
        evaluate();
      }
      assert.deepEqual(
        events.map((e) => [e.kind, e.state, e.reminder ?? false]),
        [
          ['lapi-down', 'failing', false],
          ['lapi-down', 'failing', true],
        ],
      );
      assert.match(events[0]!.title, /^The CrowdSec LAPI link is down \(pull: .+\)$/);
      await settle();
      assert.equal(
        logs.lines.filter((line) => line.level >= WARN && /crowdsec link/.test(line.msg)).length,
        0,
        'the retries themselves are not in the terminal',
      );
      const off = await t.call(`${V3}/crowdsec-link`, {
        method: 'PATCH',
        body: { description: 'branch fw', enabled: false },
      });
      assert.equal(off.status, 200, off.text);
      await waitUntil('the link is off', () => link.pull.state === 'off');
      evaluate();
      assert.deepEqual([events.at(-1)!.kind, events.at(-1)!.state], ['lapi-down', 'ok']);
      assert.equal(healthLines().length, 3);
    } finally {
      await t.close();
    }
  });

  it('the LAPI push queue growing: reported from its once-a-minute count, and over once it drains', async () => {
    const { t, clock, events, evaluate } = await healthServer();
    try {
      const saved = await t.call(`${V3}/crowdsec-link`, {
        method: 'PUT',
        body: { enabled: true, url: 'http://127.0.0.1:9/', pushEnabled: true, machineLogin: 'm', machinePassword: 'p' },
      });
      assert.equal(saved.status, 200, saved.text);
      const { db } = t.server.services;
      const insert = db.prepare(
        "INSERT INTO crowdsec_push_queue (kind, value, scope, scenario, reason, expires_at, queued_at) VALUES ('add', ?, 'Ip', 'pbx/sip', '', ?, ?)",
      );
      const queue = (count: number) =>
        db.transaction(() => {
          for (let i = 0; i < count; i++) insert.run(`198.18.0.${i % 250}`, Date.now() + 3_600_000, Date.now());
        })();
      for (let minute = 0; minute <= 6; minute++) {
        queue(300);
        evaluate();
        clock.advance(60_000);
      }
      const growing = events.filter((e) => e.kind === 'lapi-queue');
      assert.equal(growing.length, 1);
      assert.match(
        growing[0]!.title,
        /^\d+ bans wait to be shared with the CrowdSec LAPI, and the queue keeps growing$/,
      );
      db.prepare('DELETE FROM crowdsec_push_queue').run();
      clock.advance(60_000);
      evaluate();
      assert.deepEqual([events.at(-1)!.kind, events.at(-1)!.state], ['lapi-queue', 'ok']);
    } finally {
      await t.close();
    }
  });

  it('AMI disconnected for a minute, and connected again', async () => {
    const ami = await AmiTestServer.start({ username: 'console', secret: 's3cret' });
    const { t, clock, events, evaluate } = await healthServer();
    try {
      const saved = await t.call(`${V3}/ami`, {
        method: 'PATCH',
        body: { enabled: true, host: ami.host, port: ami.port, username: 'console', secret: 's3cret' },
      });
      assert.equal(saved.status, 200, saved.text);
      const peers = t.server.services.peers;
      await waitUntil('AMI connects', () => peers.connected);
      evaluate();
      await ami.goDown();
      await waitUntil('AMI link lost', () => !peers.connected);
      evaluate();
      clock.advance(59_000);
      evaluate();
      assert.equal(events.length, 0);
      clock.advance(2_000);
      evaluate();
      assert.deepEqual(
        events.map((e) => [e.kind, e.state, e.severity]),
        [['ami-down', 'failing', 'critical']],
      );
      assert.match(events[0]!.title, /^Asterisk \(AMI\) is disconnected/);
      await ami.comeBack();
      await waitUntil('AMI reconnects', () => peers.connected);
      evaluate();
      assert.deepEqual(
        [events.at(-1)!.kind, events.at(-1)!.state, events.at(-1)!.title],
        ['ami-down', 'ok', 'Asterisk (AMI) is connected again'],
      );
    } finally {
      await t.close();
      await ami.close();
    }
  });

  it('turns account-flagged and key-capped-own events into checks, raised and cleared', async () => {
    const { t, events } = await healthServer();
    try {
      const bus = t.server.services.bus;
      const flag = {
        account: '201',
        address: '198.51.100.20',
        registeredAccounts: ['202', '203'],
        state: 'flagged' as const,
        failures: 12,
        at: new Date().toISOString(),
      };
      bus.emit({ type: 'account-flagged', flag });
      bus.emit({ type: 'key-capped-own', keyId: 4, keyName: 'small router', leftOutOwn: 37 });
      assert.deepEqual(
        events.map((e) => [e.kind, e.state]),
        [
          ['account-flagged', 'failing'],
          ['cap-drops-own', 'failing'],
        ],
      );
      assert.equal(
        events[0]!.title,
        'Account 201 keeps failing from 198.51.100.20 (12 failures), where 202, 203 are registered: not banned',
      );
      assert.equal(events[1]!.title, 'Key "small router" leaves out 37 of this PBX\'s own bans (its cap is reached)');
      const shown = await getHealth(t);
      assert.deepEqual(shown.checks.map((c) => c.kind).sort(), ['account-flagged', 'cap-drops-own']);
      // Kept across a restart: nothing finds them again by itself.
      await t.restart();
      assert.equal((await getHealth(t)).checks.length, 2);
      const after: HealthCheckState[] = [];
      t.server.services.bus.on('health-changed', (event) => after.push(event.check));
      t.server.services.bus.emit({ type: 'account-flagged', flag: { ...flag, state: 'cleared' } });
      t.server.services.bus.emit({ type: 'key-capped-own', keyId: 4, keyName: 'small router', leftOutOwn: 0 });
      assert.deepEqual(
        after.map((e) => [e.kind, e.state]),
        [
          ['account-flagged', 'ok'],
          ['cap-drops-own', 'ok'],
        ],
      );
      assert.deepEqual((await getHealth(t)).checks, []);
    } finally {
      await t.close();
    }
  });

  it('names keys only for callers with SENSITIVE', async () => {
    const { t, clock, evaluate } = await healthServer();
    try {
      const { id, key } = createTestApiKey(t.server.services.db, { description: 'edge firewall' });
      await poll(t, key, '?startup=true');
      clock.advance(60_000);
      evaluate();
      const reader = createTestApiKey(t.server.services.db, { allowedPaths: { '/api/v3/system': 'read' } });
      const answer = await t.remote(`${V3}/system:getHealth`, { headers: { Authorization: `Bearer ${reader.key}` } });
      assert.equal(answer.status, 200, answer.text);
      const [check] = answer.json.data.checks;
      assert.equal(check.title, `Bouncer API key #${id} has not polled for 3 of its intervals (every 10 s)`);
      assert.equal(check.action, null);
      assert.doesNotMatch(answer.text, /edge firewall/);
    } finally {
      await t.close();
    }
  });
});
