import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

describe('database connections', () => {
  let dir: string;
  let file: string;
  let a: Db;
  let b: Db;
  before(() => {
    dir = makeTempDir('pbx-db-');
    file = join(dir, 'data', 'pbx.sqlite');
    a = openDatabase(file);
    b = openDatabase(file);
    a.exec('CREATE TABLE t (n INTEGER)');
    b.pragma('busy_timeout = 0'); // report a held lock at once instead of waiting 5 s in this single thread
  });
  after(() => {
    a.close();
    b.close();
    removeTempDir(dir);
  });

  it('begins every transaction IMMEDIATE: the write lock is held from the start, so read-then-write cannot lose its snapshot', () => {
    let otherWrite: unknown;
    a.transaction(() => {
      a.prepare('SELECT COUNT(*) FROM t').get();
      try {
        b.prepare('INSERT INTO t VALUES (1)').run(); // another worker writing meanwhile
      } catch (error) {
        otherWrite = error;
      }
      a.prepare('INSERT INTO t VALUES (2)').run(); // deferred, this failed with SQLITE_BUSY_SNAPSHOT
    })();
    assert.equal((otherWrite as { code?: string })?.code, 'SQLITE_BUSY', 'the other connection waited for the lock');
    assert.deepEqual(a.prepare('SELECT n FROM t').pluck().all(), [2]);
  });

  it('keeps .deferred available for read-only transactions', () => {
    const tx = a.transaction(() => a.prepare('SELECT COUNT(*) AS n FROM t').get());
    assert.equal(typeof tx.deferred, 'function');
    b.prepare('INSERT INTO t VALUES (3)').run();
    assert.deepEqual(tx.deferred(), { n: 2 });
  });

  it('creates the file 0600 whatever the umask, and its directory 0700', () => {
    const old = process.umask(0o022);
    try {
      const other = openDatabase(join(dir, 'fresh', 'x.sqlite'));
      other.exec('CREATE TABLE y (n INTEGER); INSERT INTO y VALUES (1)');
      for (const suffix of ['', '-wal', '-shm'])
        assert.equal(statSync(join(dir, 'fresh', `x.sqlite${suffix}`)).mode & 0o777, 0o600, `x.sqlite${suffix}`);
      assert.equal(statSync(join(dir, 'fresh')).mode & 0o777, 0o700);
      other.close();
    } finally {
      process.umask(old);
    }
  });
});
