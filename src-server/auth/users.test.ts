import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../storage/database.ts';
import { migrate } from '../storage/migrations.ts';
import { startTestServer } from '../test-support/server.ts';
import { setUserPassword } from './users.ts';
import { makeTempDir, removeTempDir } from '../test-support/temp-db.ts';

const V3 = '/pbxcore/api/v3';
const PBX_PASSWORD = 'from the environment';

/** A data directory whose only account is `ops`, an admin-role user created before the first start. */
async function dataDirWithOtherAdmin(): Promise<string> {
  const dataDir = makeTempDir('pbx-users-');
  const db = openDatabase(join(dataDir, 'pbx.sqlite'));
  try {
    migrate(db);
    await setUserPassword(db, 'ops', 'ops password 1', 'admin');
  } finally {
    db.close();
  }
  return dataDir;
}

describe('the admin account and PBX_ADMIN_PASSWORD', () => {
  test('PBX_ADMIN_PASSWORD applies to admin at first start even when another admin-role account was created first', async () => {
    const dataDir = await dataDirWithOtherAdmin();
    const t = await startTestServer({ keepDataDir: dataDir, adminPassword: PBX_PASSWORD });
    try {
      assert.equal((await t.remote(`${V3}/auth:status`)).json.data.adminPasswordSet, true);
      const admin = await t.remote(`${V3}/auth:login`, {
        method: 'POST',
        body: { login: 'admin', password: PBX_PASSWORD },
      });
      assert.equal(admin.status, 200, admin.text);
      const ops = await t.remote(`${V3}/auth:login`, {
        method: 'POST',
        body: { login: 'ops', password: 'ops password 1' },
      });
      assert.equal(ops.status, 200, 'the other account keeps its own password');
    } finally {
      await t.close();
      removeTempDir(dataDir);
    }
  });

  test('auth:status says false while admin has no password, whatever other accounts exist', async () => {
    const dataDir = await dataDirWithOtherAdmin();
    const t = await startTestServer({ keepDataDir: dataDir });
    try {
      assert.equal((await t.remote(`${V3}/auth:status`)).json.data.adminPasswordSet, false);
      const set = await t.call(`${V3}/auth:setPassword`, { method: 'POST', body: { password: 'console password' } });
      assert.equal(set.status, 200, set.text);
      assert.equal((await t.remote(`${V3}/auth:status`)).json.data.adminPasswordSet, true);
      assert.equal(
        (await t.remote(`${V3}/auth:login`, { method: 'POST', body: { login: 'admin', password: 'console password' } }))
          .status,
        200,
      );
    } finally {
      await t.close();
      removeTempDir(dataDir);
    }
  });

  test('a later start with PBX_ADMIN_PASSWORD leaves an existing admin password alone', async () => {
    const t = await startTestServer({ adminPassword: PBX_PASSWORD });
    try {
      await t.call(`${V3}/auth:setPassword`, { method: 'POST', body: { password: 'changed on console' } });
      await t.restart();
      assert.equal(
        (await t.remote(`${V3}/auth:login`, { method: 'POST', body: { login: 'admin', password: PBX_PASSWORD } }))
          .status,
        401,
      );
      assert.equal(
        (
          await t.remote(`${V3}/auth:login`, {
            method: 'POST',
            body: { login: 'admin', password: 'changed on console' },
          })
        ).status,
        200,
      );
    } finally {
      await t.close();
    }
  });
});
