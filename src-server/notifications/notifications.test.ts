import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { captureLogs } from '../test-support/captured-logs.ts';
import { startHttpReceiver, type HttpReceiver } from '../test-support/notification-receivers.ts';
import { startTestServer, type TestServer } from '../test-support/server.ts';
import type { HealthCheckState } from '../wire/types.ts';

const CHANNELS = '/pbxcore/api/v3/notification-channels';
const RULES = '/pbxcore/api/v3/notification-rules';
const AUDIT = '/pbxcore/api/v3/audit-log';
const SECRET = 'hook-secret-never-shown-5521';
const MINUTE = 60_000;

const check = (over: Partial<HealthCheckState> = {}): HealthCheckState => ({
  id: 'bouncer-silent:1',
  kind: 'bouncer-silent',
  state: 'failing',
  severity: 'critical',
  title: 'fw1 has not polled for 42 min',
  action: 'API keys › fw1',
  since: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('notification rules, digests, retries and the audit log', () => {
  const clock = new ManualClock();
  const logs = captureLogs('debug', { server: true });
  let t: TestServer;
  let receiver: HttpReceiver;
  let channelId: number;

  before(async () => {
    receiver = await startHttpReceiver();
    t = await startTestServer({ clock, logger: logs.logger });
    const channel = await t.post(CHANNELS, {
      name: 'Ops',
      type: 'webhook',
      url: `${receiver.url}/hook`,
      secret: SECRET,
    });
    assert.equal(channel.status, 201, channel.text);
    channelId = channel.json.data.id;
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    receiver.answer = () => ({ status: 200 });
    for (const rule of (await t.call(RULES)).json.data) await t.call(`${RULES}/${rule.id}`, { method: 'DELETE' });
  });

  const notifications = () => t.server.services.notifications;
  const emit = (state: HealthCheckState) => t.server.services.bus.emit({ type: 'health-changed', check: state });
  /** Moves the clock, runs what is due, and waits for the sends it started. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    notifications().tick();
    await notifications().idle();
  };
  const bodies = (from: number) => receiver.requests.slice(from).map((r) => JSON.parse(r.body));
  const channel = async () => (await t.call(`${CHANNELS}/${channelId}`)).json.data;
  const audit = async () =>
    (await t.call(`${AUDIT}?kind=notification&limit=100`)).json.data as {
      operation: string;
      reason: string;
      status: number;
    }[];

  it('sends a matching change at once, signed; checks, severity and recoveries filter', async () => {
    await t.post(RULES, {
      name: 'Bouncers',
      channelId,
      checks: ['bouncer-silent'],
      minSeverity: 'warning',
      recoveries: false,
    });
    const from = receiver.requests.length;
    emit(check());
    emit(check({ id: 'ami-down', kind: 'ami-down', title: 'AMI is down' })); // not a check of the rule
    emit(check({ id: 'bouncer-silent:2', severity: 'info', title: 'fw2 is slow' })); // below the minimum
    emit(check({ state: 'ok', title: 'fw1 polls again', failedForMs: 42 * MINUTE })); // recoveries off
    await notifications().idle();
    assert.equal(receiver.requests.length, from + 1, 'one message');
    const request = receiver.requests[from]!;
    assert.equal(
      request.headers['x-pbx-signature'],
      `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`,
    );
    const [body] = bodies(from);
    assert.equal(body.rule, 'Bouncers');
    assert.match(body.subject, /Critical: fw1 has not polled for 42 min$/);
    assert.match(body.text, /\(API keys › fw1\)/);
    const last = (await channel()).lastResult;
    assert.deepEqual([last.ok, last.test, last.message], [true, false, 'delivered (HTTP 200)']);
  });

  it('a digest sends at most one message per window, listing what happened meanwhile, recoveries included', async () => {
    await t.post(RULES, { name: 'Digest', channelId, minSeverity: 'info', digestMinutes: 10 });
    const from = receiver.requests.length;
    emit(check());
    await notifications().idle();
    assert.equal(receiver.requests.length, from + 1, 'the first change goes at once');
    await advance(2 * MINUTE);
    emit(check({ id: 'ami-down', kind: 'ami-down', severity: 'warning', title: 'AMI is down' }));
    await advance(3 * MINUTE);
    emit(check({ state: 'ok', title: 'fw1 polls again', failedForMs: 42 * MINUTE }));
    await advance(4 * MINUTE);
    assert.equal(receiver.requests.length, from + 1, 'nothing more inside the window');
    await advance(1 * MINUTE);
    assert.equal(receiver.requests.length, from + 2, 'one digest at the end of the window');
    const digest = bodies(from + 1)[0];
    assert.equal(digest.events.length, 2);
    assert.match(digest.subject, /2 health changes \(Digest\)$/);
    assert.match(digest.text, /Warning: AMI is down/);
    assert.match(digest.text, /Recovered: fw1 polls again after 42 min/);
    assert.equal(digest.recovery, false);
    assert.equal(digest.severity, 'warning');
    await advance(30 * MINUTE);
    assert.equal(receiver.requests.length, from + 2, 'a quiet window sends nothing');
    emit(check({ state: 'ok', title: 'fw1 polls again', failedForMs: 5 * MINUTE }));
    await notifications().idle();
    assert.equal(receiver.requests.length, from + 3, 'after a quiet window the next change goes at once');
    assert.equal(bodies(from + 2)[0].recovery, true);
  });

  it('a failing receiver is retried with backoff on the clock, and each attempt is in the audit log', async () => {
    await t.post(RULES, { name: 'Retry', channelId });
    let failures = 1;
    receiver.answer = () => (failures-- > 0 ? { status: 503, body: `down, token ${SECRET}` } : { status: 200 });
    const from = receiver.requests.length;
    emit(check({ title: 'retry me' }));
    await notifications().idle();
    assert.equal(receiver.requests.length, from + 1);
    const failed = (await channel()).lastResult;
    assert.equal(failed.ok, false);
    assert.equal(failed.message, 'HTTP 503: down, token ••••', 'an echoed secret is masked');
    assert.equal(notifications().queueLength, 1, 'waiting for its retry');
    await advance(29_000);
    assert.equal(receiver.requests.length, from + 1, 'not before the backoff');
    await advance(1_000);
    assert.equal(receiver.requests.length, from + 2, 'retried after 30 s');
    assert.equal((await channel()).lastResult.ok, true);
    const entries = await audit();
    const mine = entries.filter((e) => e.reason.includes('retry me'));
    assert.deepEqual(
      mine.map((e) => [e.operation, e.status]),
      [
        ['send', 200],
        ['send-failed', 503],
      ],
    );
    assert.match(mine[1]!.reason, /attempt 1: HTTP 503/);
    assert.match(mine[0]!.reason, /attempt 2: delivered/);
  });

  it('gives up after 5 attempts with doubling backoff, and says so', async () => {
    await t.post(RULES, { name: 'Give up', channelId });
    receiver.answer = () => ({ status: 500, body: 'broken' });
    const from = receiver.requests.length;
    emit(check({ title: 'never delivered' }));
    await notifications().idle();
    for (const wait of [30_000, 60_000, 120_000, 240_000]) {
      await advance(wait - 1);
      const before = receiver.requests.length;
      await advance(1);
      assert.equal(receiver.requests.length, before + 1, `retried after ${wait} ms`);
    }
    await advance(60 * MINUTE);
    assert.equal(receiver.requests.length, from + 5, 'five attempts in all');
    assert.equal(notifications().queueLength, 0);
    const mine = (await audit()).filter((e) => e.reason.includes('never delivered'));
    assert.equal(mine.filter((e) => e.operation === 'send-failed').length, 5);
    assert.match(mine.find((e) => e.operation === 'dropped')!.reason, /given up after 5 attempts/);
  });

  it('a receiver that never answers does not hold the server; the send fails and is retried', async () => {
    receiver.answer = () => 'hold';
    const from = receiver.requests.length;
    assert.equal((await t.post(`${CHANNELS}/${channelId}:sendTest`, {})).status, 200);
    await receiver.waitFor(from + 1);
    // The send is in flight; the server answers everything else meanwhile.
    assert.equal((await t.call(CHANNELS)).status, 200);
    assert.equal((await t.call('/pbxcore/api/v3/system:ping')).status, 200);
    assert.equal(notifications().queueLength, 1);
    receiver.answer = () => ({ status: 200 });
    receiver.release();
    await notifications().idle();
    const failed = (await channel()).lastResult;
    assert.deepEqual([failed.ok, failed.test], [false, true]);
    await advance(30_000);
    assert.equal(receiver.requests.length, from + 2);
    assert.deepEqual([(await channel()).lastResult.ok, JSON.parse(receiver.requests.at(-1)!.body).test], [true, true]);
  });

  it('the secret is never in a log line, an answer or the audit log', async () => {
    const answers = [
      await t.call(CHANNELS),
      await t.call(`${CHANNELS}/${channelId}`),
      await t.call(`${AUDIT}?limit=500`),
      await t.call('/pbxcore/api/v3/openapi'),
    ];
    for (const answer of answers) assert.ok(!answer.text.includes(SECRET), answer.text.slice(0, 200));
    assert.ok(logs.text().includes('notification sent'), 'the log has the sends');
    assert.ok(!logs.text().includes(SECRET), 'and never the secret');
  });
});
