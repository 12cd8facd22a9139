import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from '../storage/database.ts';
import { retryWhileBusy } from './busy-retry.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

describe('retryWhileBusy', () => {
  let dir: string;
  let holder: Db;
  let writer: Db;
  before(() => {
    dir = makeTempDir('pbx-busy-');
    holder = openDatabase(join(dir, 'pbx.sqlite'));
    writer = openDatabase(join(dir, 'pbx.sqlite'));
    holder.exec('CREATE TABLE t (n INTEGER)');
    writer.pragma('busy_timeout = 0');
  });
  after(() => {
    holder.close();
    writer.close();
    removeTempDir(dir);
  });

  it('retries a write while another connection holds the lock, with growing waits, and succeeds once it is released', async () => {
    holder.exec('BEGIN IMMEDIATE');
    setTimeout(() => holder.exec('COMMIT'), 120);
    const tries: number[] = [];
    const started = performance.now();
    await retryWhileBusy(
      (attempt) => {
        tries.push(Math.round(performance.now() - started));
        writer.prepare('INSERT INTO t VALUES (?)').run(attempt);
      },
      { attempts: 10, baseDelayMs: 20, budgetMs: 5000 },
    );
    assert.ok(tries.length > 1, `tried ${tries.length} times`);
    const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
    assert.ok(
      gaps.every((gap, i) => gap >= 20 * 2 ** i - 2),
      `waits double: ${gaps.join(', ')}`,
    );
    assert.deepEqual(writer.prepare('SELECT n FROM t').pluck().all(), [tries.length]);
  });

  it('gives up after the attempts with the busy error itself', async () => {
    holder.exec('BEGIN IMMEDIATE');
    try {
      let tries = 0;
      await assert.rejects(
        retryWhileBusy(
          () => {
            tries++;
            writer.prepare('INSERT INTO t VALUES (0)').run();
          },
          { attempts: 3, baseDelayMs: 1, budgetMs: 5000 },
        ),
        (error: { code?: string }) => error.code === 'SQLITE_BUSY',
      );
      assert.equal(tries, 3);
    } finally {
      holder.exec('COMMIT');
    }
  });

  it('never retries other errors', async () => {
    let tries = 0;
    await assert.rejects(
      retryWhileBusy(() => {
        tries++;
        writer.prepare('INSERT INTO missing_table VALUES (1)').run();
      }),
      /no such table/,
    );
    assert.equal(tries, 1);
  });
});
