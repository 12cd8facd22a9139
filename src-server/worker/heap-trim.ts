import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A worker heap larger than this after a job is given back at once. An idle worker's is 30-50 MB. */
export const TRIM_ABOVE_BYTES = 64 * 2 ** 20;
/** ...and grown by this much since the last collection: a heap that stays large is not collected after every job. */
const TRIM_GROWTH_BYTES = 32 * 2 ** 20;

// V8 grows a thread's heap to what its heaviest job needed (a 100,000-line import: 120 MB) and gives
// it back only when that thread collects garbage again, which an idle worker seldom does: the pool's
// two idle threads would hold it for good. A full collection just after such a job returns it
// (measured: 122 → 52 MB; the server's RSS 441 → 366 MB after an import). No library offers this;
// `gc` is reached through a context made after the flag is set (the flag only affects new contexts).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** This thread's heap after its last collection here. */
let trimmedTo = 0;

/**
 * After a job: when this thread's heap is over TRIM_ABOVE_BYTES and has grown by TRIM_GROWTH_BYTES
 * since the last collection here, a full collection runs on the next turn (after the answer has
 * gone; a job arriving meanwhile waits its 20-50 ms). Returns whether one was scheduled.
 */
export function trimHeapAfterJob(): boolean {
  const size = getHeapStatistics().total_heap_size;
  if (size <= TRIM_ABOVE_BYTES || size <= trimmedTo + TRIM_GROWTH_BYTES) return false;
  setImmediate(() => {
    collectGarbage();
    trimmedTo = getHeapStatistics().total_heap_size;
  });
  return true;
}
