import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerBus, type BusEvent } from '../bus.ts';
import { publishWorkerEvents } from './worker-events.ts';

function recordingBus(): { bus: ServerBus; seen: BusEvent[] } {
  const bus = new ServerBus();
  const seen: BusEvent[] = [];
  bus.on('resource-changed', (event) => seen.push(event));
  return { bus, seen };
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
    publishWorkerEvents(bus, { kind: 'failed', attempts: 3, error: 'boom' });
    assert.deepEqual(seen, []);
  });
});
