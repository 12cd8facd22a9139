import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { startTestServer } from '../test-support/server.ts';
import type { HealthCheckState } from '../wire/types.ts';
import { QueueGrowth, QUEUE_ALERT_ENTRIES } from './link-checks.ts';
import { SURGE_MIN, SurgeWatch } from './surge.ts';

const MINUTE = 60_000;

describe('attack surge', () => {
  it('rises once when 15 minutes are far above the 4-hour baseline, and clears when they fall back', () => {
    let now = Date.parse('2026-03-01T00:00:00Z');
    const surge = new SurgeWatch(now);
    // Four hours and more of 20 failures a minute from many sources: 300 per 15 min is the usual,
    // no surge (the first 15 minutes have no baseline yet: the floor of 100 alone would hold them).
    for (let minute = 0; minute < 255; minute++, now += MINUTE) {
      for (let i = 0; i < 20; i++) surge.record('failures', `192.0.2.${i}`, 'sip', now);
      if (minute >= 30) assert.deepEqual(surge.evaluate(now), [], `minute ${minute}`);
    }
    // Then 5 × that (1500 in 15 min) is a surge: 110 a minute from two sources.
    let raised = 0;
    for (let minute = 0; minute < 15; minute++, now += MINUTE) {
      for (let i = 0; i < 100; i++) surge.record('failures', '203.0.113.9', 'sip', now);
      for (let i = 0; i < 10; i++) surge.record('failures', '198.51.100.4', 'http', now);
      if (surge.evaluate(now).length) raised++;
    }
    const [finding] = surge.evaluate(now);
    assert.ok(finding, 'raised by the end of the 15 minutes');
    assert.ok(raised >= 1);
    assert.equal(finding.id, 'attack-surge');
    assert.match(
      finding.title,
      /^Attack surge: \d+ intrusion failures and 0 bans in the last 15 min \(usually 30\d(\.\d)? failures/,
    );
    assert.match(finding.detail!, /^Top sources: 203\.0\.113\.9 \(1\d{3}\), 198\.51\.100\.4 \(\d+\)/);
    assert.match(finding.detail!, /Categories: sip failures \d+, http failures \d+/);
    // Back to the usual 20 a minute: cleared once the last 15 minutes hold under half the threshold.
    for (let minute = 0; minute < 16; minute++, now += MINUTE) {
      for (let i = 0; i < 20; i++) surge.record('failures', `192.0.2.${i}`, 'sip', now);
      surge.evaluate(now);
    }
    assert.deepEqual(surge.evaluate(now), []);
  });

  it('needs the floor on a quiet PBX: a lone scanner is no surge, ten bans in 15 minutes are', () => {
    const now = Date.parse('2026-03-01T00:00:00Z');
    const surge = new SurgeWatch(now);
    for (let i = 0; i < SURGE_MIN.failures - 1; i++) surge.record('failures', '203.0.113.9', 'sip', now);
    assert.deepEqual(surge.evaluate(now), []);
    for (let i = 0; i < SURGE_MIN.bans; i++) surge.record('bans', `203.0.113.${i}`, 'sip', now);
    assert.equal(surge.evaluate(now).length, 1);
  });

  it('on the server: one health-changed per surge, from bus failures and intrusion bans', async () => {
    const clock = new ManualClock();
    const t = await startTestServer({ clock });
    try {
      const events: HealthCheckState[] = [];
      t.server.services.bus.on('health-changed', (event) => events.push(event.check));
      for (let i = 0; i < SURGE_MIN.failures; i++)
        t.server.services.bus.emit({
          type: 'security-failure',
          category: 'sip',
          ip: `203.0.113.${i % 3}`,
          reason: 'x',
        });
      for (let tick = 0; tick < 10; tick++) {
        clock.advance(15_000);
        t.server.services.health.evaluate();
      }
      assert.deepEqual(
        events.map((e) => [e.kind, e.state]),
        [['attack-surge', 'failing']],
      );
      assert.match(
        events[0]!.detail!,
        /^Top sources: 203\.0\.113\.0 \(35\), 203\.0\.113\.1 \(34\), 203\.0\.113\.2 \(34\)\. Categories: sip failures 100, sip bans 3\.$/,
      );
      assert.deepEqual(
        Object.keys(events[0]!).sort(),
        ['action', 'detail', 'id', 'kind', 'severity', 'since', 'state', 'title'],
        'the wire type, not the console page or its redacted words',
      );
      clock.advance(16 * MINUTE);
      t.server.services.health.evaluate();
      assert.deepEqual(
        events.map((e) => [e.kind, e.state]),
        [
          ['attack-surge', 'failing'],
          ['attack-surge', 'ok'],
        ],
      );
    } finally {
      await t.close();
    }
  });
});

describe('LAPI push queue', () => {
  it('is reported while it holds many entries and keeps growing over 5 minutes, not while it drains', () => {
    const queue = new QueueGrowth();
    let now = 0;
    const sample = (length: number) => {
      now += MINUTE;
      queue.sample(now, length);
      return queue.finding(now).map((f) => f.kind);
    };
    assert.deepEqual(sample(QUEUE_ALERT_ENTRIES), []);
    for (let i = 1; i <= 3; i++) assert.deepEqual(sample(QUEUE_ALERT_ENTRIES + i * 100), [], 'too soon');
    assert.deepEqual(sample(QUEUE_ALERT_ENTRIES + 500), ['lapi-queue']);
    assert.deepEqual(sample(QUEUE_ALERT_ENTRIES + 600), ['lapi-queue']);
    for (let i = 0; i < 5; i++) sample(QUEUE_ALERT_ENTRIES + 600 - i * 100);
    assert.deepEqual(sample(QUEUE_ALERT_ENTRIES - 1), []);
  });
});
