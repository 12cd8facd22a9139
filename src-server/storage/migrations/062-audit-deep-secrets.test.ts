import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrations.ts';
import { MASKED } from '../secret-mask.ts';
import { allMigrations } from './index.ts';
import { withTempDir } from '../../test-support/temp-db.ts';

test('migration 062 masks nested secrets in rows already written, and leaves no old bytes in the file', () => {
  withTempDir('pbx-m062-', (dir) => {
    const file = join(dir, 'pbx.sqlite');
    const db = openDatabase(file);
    migrate(
      db,
      allMigrations.filter((m) => m.version < 62),
    );
    const insert = db.prepare(
      "INSERT INTO audit_log (at, kind, address, status, diff) VALUES (1, 'write', '127.0.0.1', 200, ?)",
    );
    const leaked = 'MIGRATE-AMI-SECRET-7f1c';
    const nested = [
      { field: 'config', after: { ami: { host: 'pbx', secret: leaked }, list: [{ password: `${leaked}-2` }] } },
      { field: 'dryRun', after: false },
    ];
    const clean = [{ field: 'description', before: 'a', after: 'b' }];
    const nestedId = Number(insert.run(JSON.stringify(nested)).lastInsertRowid);
    const cleanId = Number(insert.run(JSON.stringify(clean)).lastInsertRowid);
    const garbageId = Number(insert.run(`not json ${leaked}`).lastInsertRowid);
    insert.run(null);

    assert.deepEqual(
      migrate(
        db,
        allMigrations.filter((m) => m.version <= 62),
      ),
      [62],
    );
    const diffOf = (id: number) =>
      (db.prepare('SELECT diff FROM audit_log WHERE id = ?').get(id) as { diff: string | null }).diff;
    assert.deepEqual(JSON.parse(diffOf(nestedId)!), [
      { field: 'config', after: { ami: { host: 'pbx', secret: MASKED }, list: [{ password: MASKED }] } },
      { field: 'dryRun', after: false },
    ]);
    assert.equal(diffOf(cleanId), JSON.stringify(clean), 'a row without secrets is untouched');
    assert.equal(diffOf(garbageId), null, 'an unreadable diff is dropped rather than kept');
    db.close();
    for (const path of [file, `${file}-wal`]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        continue;
      }
      assert.ok(!bytes.includes(leaked), `${path} still holds the old secret`);
    }
  });
});
