import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import type { SendOutcome } from './channel-config.ts';
import { DeliveryQueue, type DeliveryJob } from './delivery-queue.ts';
import { testMessage } from './message.ts';

/** A queue whose sends wait until the test settles them, one by one. */
function queueWithPendingSends(
  limits = { maxJobs: 5, maxInFlight: 2, maxAttempts: 2, backoffMs: 1000, maxBackoffMs: 1500 },
) {
  const clock = new ManualClock();
  const pending: { job: DeliveryJob; settle: (outcome: SendOutcome) => void }[] = [];
  const settled: [number, boolean, boolean][] = [];
  const dropped: DeliveryJob[] = [];
  const queue = new DeliveryQueue(
    clock,
    {
      send: (job) => new Promise((settle) => pending.push({ job, settle })),
      settled: (job, outcome, final) => settled.push([job.channelId, outcome.ok, final]),
      dropped: (job) => dropped.push(job),
    },
    limits,
  );
  return { clock, queue, pending, settled, dropped };
}

describe('DeliveryQueue', () => {
  it('holds at most maxJobs and runs at most maxInFlight at once; the rest is dropped, never queued', async () => {
    const { queue, pending, dropped } = queueWithPendingSends();
    const accepted = [1, 2, 3, 4, 5, 6, 7].map((id) => queue.enqueue(id, testMessage('c', 0)));
    assert.deepEqual(accepted, [true, true, true, true, true, false, false]);
    assert.deepEqual(
      dropped.map((job) => job.channelId),
      [6, 7],
    );
    assert.equal(pending.length, 2, 'two in flight');
    assert.equal(queue.length, 5);
    pending.shift()!.settle({ ok: true, status: 200, message: 'ok' });
    await new Promise((r) => setImmediate(r));
    assert.equal(pending.length, 2, 'the next one starts when one ends');
    assert.equal(queue.length, 4);
  });

  it('retries a failure after the backoff (by the clock) and stops at maxAttempts', async () => {
    const { clock, queue, pending, settled } = queueWithPendingSends();
    queue.enqueue(9, testMessage('c', 0));
    pending.shift()!.settle({ ok: false, status: 500, message: 'no' });
    await queue.idle();
    assert.deepEqual(settled, [[9, false, false]]);
    assert.equal(queue.nextDue(), clock.now() + 1000);
    clock.advance(999);
    queue.tick();
    assert.equal(pending.length, 0, 'not yet');
    clock.advance(1);
    queue.tick();
    assert.equal(pending[0]!.job.attempt, 2);
    pending.shift()!.settle({ ok: false, status: 500, message: 'no' });
    await queue.idle();
    assert.deepEqual(settled.at(-1), [9, false, true], 'the last attempt is final');
    assert.equal(queue.length, 0);
  });

  it('a send that throws counts as a failure, not a crash', async () => {
    const clock = new ManualClock();
    const settled: SendOutcome[] = [];
    const queue = new DeliveryQueue(clock, {
      send: () => Promise.reject(new Error('boom')),
      settled: (_job, outcome) => settled.push(outcome),
      dropped: () => undefined,
    });
    queue.enqueue(1, testMessage('c', 0));
    await queue.idle();
    assert.deepEqual(settled, [{ ok: false, status: 0, message: 'Error: boom' }]);
  });

  it('after close() nothing more starts: waiting jobs and retries are dropped', async () => {
    const { clock, queue, pending } = queueWithPendingSends();
    for (const id of [1, 2, 3]) queue.enqueue(id, testMessage('c', 0));
    queue.close();
    pending.shift()!.settle({ ok: false, status: 500, message: 'no' });
    await new Promise((r) => setImmediate(r));
    clock.advance(60_000);
    queue.tick();
    assert.equal(pending.length, 1, 'only the send already in flight');
    assert.equal(queue.enqueue(4, testMessage('c', 0)), false);
  });
});
