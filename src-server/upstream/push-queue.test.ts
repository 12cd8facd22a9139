import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BACKGROUND_BUSY_WAIT_MS } from '../storage/background-write.ts';
import type { Db } from '../storage/database.ts';
import { recordLockWaits } from '../test-support/lock-waits.ts';
import { openTempDb } from '../test-support/temp-db.ts';
import { ECHO_GRACE_MS, PushQueue, type NewPush } from './push-queue.ts';

/** Runs `run` with a migrated database; `open()` gives a new connection to it each time. */
function withDb(run: (open: () => Db) => void): void {
  const temp = openTempDb('pbx-push-queue-');
  try {
    run(temp.connect);
  } finally {
    temp.dispose();
  }
}

const add = (value: string, expiresAt: number, scenario = 'pbx/sip'): NewPush => ({
  kind: 'add',
  value,
  scope: 'Ip',
  scenario,
  reason: 'test',
  expiresAt,
});

test('the queue survives a restart: entries and their unanswered mark are read back from SQLite', () => {
  withDb((open) => {
    let now = 1_000_000;
    const clock = { now: () => now };
    const first = open();
    const queue = new PushQueue(first, clock);
    queue.enqueue([add('192.0.2.1', now + 60_000), add('192.0.2.2', now + 60_000)]);
    const [sent] = queue.next(1);
    queue.markSending([sent!.id], now);
    first.close();
    now += 1000;
    const again = new PushQueue(open(), clock);
    assert.equal(again.length, 2);
    assert.deepEqual(
      again.unconfirmed().map((e) => e.value),
      ['192.0.2.1'],
    );
    assert.deepEqual(
      again.next(10).map((e) => e.value),
      ['192.0.2.1', '192.0.2.2'],
    );
  });
});

test('bounded: when full, adds whose ban ended go first, then the oldest; each is counted as dropped', () => {
  withDb((open) => {
    let now = 1_000_000;
    const queue = new PushQueue(open(), { now: () => now }, 3);
    queue.enqueue([add('192.0.2.1', now + 10), add('192.0.2.2', now + 60_000), add('192.0.2.3', now + 60_000)]);
    now += 100; // the first ban has ended
    queue.enqueue([add('192.0.2.4', now + 60_000)]);
    assert.deepEqual(
      queue.next(10).map((e) => e.value),
      ['192.0.2.2', '192.0.2.3', '192.0.2.4'],
    );
    assert.equal(queue.dropped, 1);
    queue.enqueue([add('192.0.2.5', now + 60_000)]);
    assert.deepEqual(
      queue.next(10).map((e) => e.value),
      ['192.0.2.3', '192.0.2.4', '192.0.2.5'],
    );
    assert.equal(queue.dropped, 2);
  });
});

test('a lift cancels its unsent ban, and this PBX recognises its own decisions until the echo grace ends', () => {
  withDb((open) => {
    let now = 1_000_000;
    const queue = new PushQueue(open(), { now: () => now });
    queue.enqueue([add('192.0.2.7', now + 600_000)]);
    assert.equal(queue.isOwn('192.0.2.7', 'pbx/sip'), true);
    assert.equal(queue.isOwn('192.0.2.7', 'pbx/ami'), false);
    queue.enqueue([{ ...add('192.0.2.7', now + 600_000), kind: 'delete' }]);
    assert.deepEqual(
      queue.next(10).map((e) => `${e.kind} ${e.value}`),
      ['delete 192.0.2.7'],
    );
    now += ECHO_GRACE_MS - 1;
    assert.equal(queue.isOwn('192.0.2.7', 'pbx/sip'), true);
    now += 2;
    assert.equal(queue.isOwn('192.0.2.7', 'pbx/sip'), false);
  });
});

test('an add whose ban ends before it is sent is dropped unsent', () => {
  withDb((open) => {
    let now = 1_000_000;
    const queue = new PushQueue(open(), { now: () => now });
    queue.enqueue([add('192.0.2.8', now + 1000)]);
    now += 1000;
    assert.deepEqual(queue.next(10), []);
    assert.equal(queue.dropped, 1);
  });
});

test('while another connection holds the write lock, entries wait in memory (bounded, counted, echo-checked), then are written', async () => {
  const temp = openTempDb('pbx-push-queue-');
  try {
    const now = 1_000_000;
    const queueDb = temp.connect();
    const queue = new PushQueue(queueDb, { now: () => now }, 2);
    const locker = temp.connect();
    locker.exec('BEGIN IMMEDIATE');
    const lockWaits = recordLockWaits(queueDb);
    try {
      queue.enqueue([
        add('192.0.2.11', now + 60_000),
        add('192.0.2.12', now + 60_000),
        add('192.0.2.13', now + 60_000),
      ]);
    } finally {
      lockWaits.stop();
    }
    assert.equal(lockWaits.waits.length, 1, 'enqueue met the held lock once');
    assert.ok(
      lockWaits.longest() <= BACKGROUND_BUSY_WAIT_MS,
      `enqueue was let wait ${lockWaits.longest()} ms: it did not sit out the busy_timeout`,
    );
    assert.equal(queue.waiting, 2, 'bounded in memory too');
    assert.equal(queue.dropped, 1, 'the oldest was dropped and counted');
    assert.equal(queue.isOwn('192.0.2.13', 'pbx/sip'), true, 'an unwritten entry is already this PBX’s own decision');
    assert.equal(queue.ownDecisions().has('pbx/sip 192.0.2.12'), true);
    assert.deepEqual(queue.next(10), [], 'nothing unwritten is handed out');
    let written = 0;
    queue.onWritten = () => written++;
    locker.exec('COMMIT');
    const deadline = Date.now() + 30_000;
    while (written === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(written, 1);
    assert.equal(queue.waiting, 0);
    assert.deepEqual(
      queue.next(10).map((e) => e.value),
      ['192.0.2.12', '192.0.2.13'],
    );
    queue.close();
  } finally {
    temp.dispose();
  }
});
