import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SLICE_MS, SlicedQueue } from './sliced-queue.ts';

describe('SlicedQueue', () => {
  it('handles items in order, yields the event loop once a slice is spent and pauses its source meanwhile', async () => {
    let now = 0;
    const handled: number[] = [];
    const pauses: boolean[] = [];
    // Each item "takes" 3 ms of the injected clock: three fit in one 8 ms slice.
    const queue = new SlicedQueue<number>(
      (n) => {
        handled.push(n);
        now += 3;
      },
      (paused) => pauses.push(paused),
      () => now,
    );
    queue.push([1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(handled, [1, 2, 3], `a slice of ${SLICE_MS} ms, then the turn ends`);
    assert.deepEqual(pauses, [true]);
    queue.push([8]);
    assert.deepEqual(handled, [1, 2, 3], 'a later item waits behind the earlier ones');
    await nextTurn();
    assert.deepEqual(handled, [1, 2, 3, 4, 5, 6]);
    await nextTurn();
    assert.deepEqual(handled, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(pauses.at(-1), false, 'the source resumes once the queue is empty');
  });

  it('gives one budget per turn, however many pushes arrive in it (a socket flowing several chunks)', async () => {
    let now = 0;
    const handled: number[] = [];
    const queue = new SlicedQueue<number>(
      (n) => {
        handled.push(n);
        now += 3;
      },
      () => undefined,
      () => now,
    );
    queue.push([1, 2]);
    queue.push([3, 4]);
    queue.push([5, 6]);
    assert.deepEqual(handled, [1, 2, 3], "the second and third chunk share the first one's slice");
    await nextTurn();
    await nextTurn();
    assert.deepEqual(handled, [1, 2, 3, 4, 5, 6]);
  });

  it('drops what waits once stopped', async () => {
    let now = 0;
    const handled: number[] = [];
    const queue = new SlicedQueue<number>(
      (n) => {
        handled.push(n);
        now += 10;
      },
      () => undefined,
      () => now,
    );
    queue.push([1, 2, 3]);
    queue.stop();
    await nextTurn();
    queue.push([4]);
    assert.deepEqual(handled, [1]);
  });
});
