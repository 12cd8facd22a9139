import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { describe, test } from 'node:test';
import { TRIM_ABOVE_BYTES, trimHeapAfterJob } from './heap-trim.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('a worker heap grown by a heavy job', () => {
  test('is given back after the job: the heap shrinks under the bound on the next turn', async () => {
    // A heavy job: 400,000 small objects held at once (as an import's parsed lines are), then dropped.
    let held: Array<{ value: string; line: number; lines: number[] }> | undefined = Array.from(
      { length: 400_000 },
      (_, i) => ({ value: `10.0.${i >> 8}.${i & 255}`, line: i, lines: [i] }),
    );
    assert.ok(held.length > 0);
    const grown = getHeapStatistics().total_heap_size;
    assert.ok(grown > TRIM_ABOVE_BYTES, `the job grew the heap to ${Math.round(grown / 2 ** 20)} MB`);
    held = undefined;
    assert.equal(trimHeapAfterJob(), true);
    await nextTurn();
    await nextTurn();
    const after = getHeapStatistics().total_heap_size;
    assert.ok(after < TRIM_ABOVE_BYTES, `heap after: ${Math.round(after / 2 ** 20)} MB`);
  });

  test('a light job leaves the heap alone', async () => {
    await nextTurn();
    await nextTurn();
    assert.equal(trimHeapAfterJob(), false);
  });
});
