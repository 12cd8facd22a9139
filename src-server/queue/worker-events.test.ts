import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerBus, type BusEvent } from '../bus.ts';
import { DIAGNOSTICS_MODULE, useTestServer, type TestServer } from '../test-support/server.ts';
import { publishWorkerEvents } from './worker-events.ts';

function recordingBus(): { bus: ServerBus; seen: BusEvent[] } {
  const bus = new ServerBus();
  const seen: BusEvent[] = [];
  bus.on('resource-changed', (event) => seen.push(event));
  return { bus, seen };
}

/** One event of every kind, so a new kind fails to compile here until it is covered. */
const ONE_OF_EACH: { [K in BusEvent['type']]: Extract<BusEvent, { type: K }> } = {
  'resource-changed': { type: 'resource-changed', resource: 'diagnostics' },
  'security-failure': { type: 'security-failure', category: 'sip', ip: '192.0.2.9', reason: 'test' },
  'bans-lifted': { type: 'bans-lifted', ip: '192.0.2.7' },
  'bans-reloaded': { type: 'bans-reloaded' },
  'bans-added': { type: 'bans-added', ip: '192.0.2.7' },
  'bans-imported': { type: 'bans-imported', importId: 0, fromId: 0, toId: 0 },
  'access-rejected': {
    type: 'access-rejected',
    entry: { kind: 'failed-login', status: 401, reason: 'test', address: '192.0.2.9', method: 'POST', path: '/x' },
  },
  'account-flagged': {
    type: 'account-flagged',
    flag: { account: '102', address: '192.0.2.10', registeredAccounts: ['101'], state: 'flagged', failures: 5, at: '' },
  },
  'key-capped-own': { type: 'key-capped-own', keyId: 1, keyName: 'fw1', leftOutOwn: 0 },
  'health-changed': {
    type: 'health-changed',
    check: { id: 'ami-down', kind: 'ami-down', state: 'ok', severity: 'warning', title: 'AMI connected', since: '' },
  },
  'notification-test': { type: 'notification-test', channelId: 1 },
};
const EVENT_KINDS = Object.keys(ONE_OF_EACH) as BusEvent['type'][];
const EMIT = '/pbxcore/api/v3/diagnostics:emit';

/**
 * Counts, per kind, the events sent that reach the server's bus: only those equal to the one sent, since the
 * web thread may raise its own in answer (a flagged account or a capped key becomes a health check).
 */
function countBusEvents(t: TestServer): { counts: Map<string, number>; stop: () => void } {
  const counts = new Map<string, number>();
  const stops = EVENT_KINDS.map((kind) =>
    t.server.services.bus.on(kind, (event) => {
      if (JSON.stringify(event) === JSON.stringify(ONE_OF_EACH[kind])) counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }),
  );
  return { counts, stop: () => stops.forEach((stop) => stop()) };
}

describe('publishWorkerEvents', () => {
  it("publishes a finished job's events in the order the worker raised them", () => {
    const { bus, seen } = recordingBus();
    const events: BusEvent[] = [
      { type: 'resource-changed', resource: 'extensions' },
      { type: 'resource-changed', resource: 'providers' },
    ];
    publishWorkerEvents(bus, { kind: 'done', status: 200, hash: 'h', body: '{}', compressed: false, events });
    assert.deepEqual(seen, events);
  });

  it('publishes nothing for an expired or failed job', () => {
    const { bus, seen } = recordingBus();
    publishWorkerEvents(bus, { kind: 'expired', ageMs: 5000 });
    publishWorkerEvents(bus, { kind: 'failed' });
    assert.deepEqual(seen, []);
  });
});

describe("a worker's events reach the bus exactly once", () => {
  const t = useTestServer({ resourceModules: [DIAGNOSTICS_MODULE] });
  const expected = new Map(EVENT_KINDS.map((kind) => [kind, 1]));

  it('for a request answered in place', async () => {
    const { counts, stop } = countBusEvents(t);
    try {
      const answer = await t.post(EMIT, { events: Object.values(ONE_OF_EACH) });
      assert.equal(answer.status, 200);
      assert.deepEqual(counts, expected);
    } finally {
      stop();
    }
  });

  it('for an async job', async () => {
    const { counts, stop } = countBusEvents(t);
    try {
      const channel = 'worker-events';
      const accepted = await t.post(
        EMIT,
        { events: Object.values(ONE_OF_EACH) },
        { headers: { 'X-Async-Channel': channel } },
      );
      const { jobId } = accepted.json.data as { jobId: string };
      const result = `/pbxcore/api/v3/events?channel=${channel}&jobId=${jobId}`;
      let fetched = await t.call(result);
      while (fetched.status === 202) fetched = await t.call(result); // running: fetched again, no sleep
      assert.equal(fetched.status, 200);
      assert.deepEqual(counts, expected);
    } finally {
      stop();
    }
  });
});
