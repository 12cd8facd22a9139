import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase, type Db } from '../storage/database.ts';
import { migrate } from '../storage/migrations.ts';
import { findApiKey, generateApiKey, hashApiKey, keyDisplay, touchApiKey } from './api-key-store.ts';
import { sourceAllowed } from './network-binding.ts';

let dir: string;
let db: Db;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'pbx-keys-'));
  db = openDatabase(join(dir, 'pbx.sqlite'));
  migrate(db);
});
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function insertKey(key: string, networkfilterid = 'none'): number {
  return Number(
    db
      .prepare("INSERT INTO api_keys (description, key_hash, key_display, allowed_paths, networkfilterid, created_at) VALUES ('k', ?, ?, ?, ?, ?)")
      .run(hashApiKey(key), keyDisplay(key), '{"/api/v3/x":"read","/api/v3/y":"admin"}', networkfilterid, new Date().toISOString()).lastInsertRowid,
  );
}

test('keys are found by hash, case-insensitively; malformed and unknown keys are not', () => {
  const key = generateApiKey();
  assert.match(key, /^[0-9a-f]{64}$/);
  const id = insertKey(key);
  const found = findApiKey(db, key.toUpperCase());
  assert.equal(found?.id, id);
  assert.deepEqual(found?.allowedPaths, { '/api/v3/x': 'read' }, 'unknown permissions are dropped');
  assert.equal(findApiKey(db, generateApiKey()), undefined);
  assert.equal(findApiKey(db, 'not-a-key'), undefined);
  const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM api_keys WHERE key_hash = ?').all('x') as Array<{ detail: string }>;
  assert.match(plan.map((p) => p.detail).join(' '), /USING (COVERING )?INDEX/, 'validation is one indexed lookup');
});

test('last use is written at most once a minute per key', () => {
  const id = insertKey(generateApiKey());
  const t0 = Date.parse('2026-03-01T10:00:00Z');
  assert.equal(touchApiKey(db, id, '192.0.2.1', t0), true);
  assert.equal(touchApiKey(db, id, '192.0.2.2', t0 + 59_000), false);
  const row = () => db.prepare('SELECT last_used_at, last_used_ip FROM api_keys WHERE id = ?').get(id) as { last_used_at: string; last_used_ip: string };
  assert.deepEqual(row(), { last_used_at: new Date(t0).toISOString(), last_used_ip: '192.0.2.1' });
  assert.equal(touchApiKey(db, id, '192.0.2.3', t0 + 60_000), true);
  assert.equal(row().last_used_ip, '192.0.2.3');
});

test('network binding: none, localhost (127.0.0.1 and ::1 only), a filter permit, a missing filter', () => {
  const filter = Number(db.prepare("INSERT INTO network_filters (permit) VALUES ('192.0.2.0/24')").run().lastInsertRowid);
  assert.equal(sourceAllowed(db, 'none', '203.0.113.5'), true);
  assert.equal(sourceAllowed(db, 'localhost', '127.0.0.1'), true);
  assert.equal(sourceAllowed(db, 'localhost', '::1'), true);
  assert.equal(sourceAllowed(db, 'localhost', '::ffff:127.0.0.1'), true);
  assert.equal(sourceAllowed(db, 'localhost', '127.0.0.2'), false);
  assert.equal(sourceAllowed(db, String(filter), '192.0.2.77'), true);
  assert.equal(sourceAllowed(db, String(filter), '::ffff:192.0.2.77'), true);
  assert.equal(sourceAllowed(db, String(filter), '198.51.100.1'), false);
  assert.equal(sourceAllowed(db, '99999', '192.0.2.77'), false, 'a deleted filter denies');
  assert.equal(sourceAllowed(db, 'garbage', '192.0.2.77'), false);
});
