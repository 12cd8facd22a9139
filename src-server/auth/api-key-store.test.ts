import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openTempDb } from '../test-support/temp-db.ts';
import {
  findApiKey,
  generateApiKey,
  hashApiKey,
  keyDisplay,
  keySources,
  MAX_KEY_SOURCES,
  touchApiKey,
} from './api-key-store.ts';
import { sourceAllowed } from './network-binding.ts';

const { db, dispose } = openTempDb('pbx-keys-');
after(dispose);

function insertKey(key: string, networkfilterid = 'none'): number {
  return Number(
    db
      .prepare(
        "INSERT INTO api_keys (description, key_hash, key_display, allowed_paths, networkfilterid, created_at) VALUES ('k', ?, ?, ?, ?, ?)",
      )
      .run(
        hashApiKey(key),
        keyDisplay(key),
        '{"/api/v3/x":"read","/api/v3/y":"admin"}',
        networkfilterid,
        new Date().toISOString(),
      ).lastInsertRowid,
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
  const plan = db.prepare('EXPLAIN QUERY PLAN SELECT id FROM api_keys WHERE key_hash = ?').all('x') as Array<{
    detail: string;
  }>;
  assert.match(plan.map((p) => p.detail).join(' '), /USING (COVERING )?INDEX/, 'validation is one indexed lookup');
});

test('last use is written at most once a minute per (key, source address)', () => {
  const id = insertKey(generateApiKey());
  const t0 = Date.parse('2026-03-01T10:00:00Z');
  const at = (ms: number) => new Date(ms).toISOString();
  assert.equal(touchApiKey(db, id, '192.0.2.1', t0), true);
  assert.equal(touchApiKey(db, id, '192.0.2.1', t0 + 59_000), false, 'same address within the minute: no write');
  const row = () =>
    db.prepare('SELECT last_used_at, last_used_ip FROM api_keys WHERE id = ?').get(id) as {
      last_used_at: string;
      last_used_ip: string;
    };
  assert.deepEqual(row(), { last_used_at: at(t0), last_used_ip: '192.0.2.1' });
  assert.equal(touchApiKey(db, id, '192.0.2.2', t0 + 30_000), true, 'another address is its own entry');
  assert.deepEqual(row(), { last_used_at: at(t0 + 30_000), last_used_ip: '192.0.2.2' });
  assert.equal(touchApiKey(db, id, '192.0.2.1', t0 + 60_000), true);
  assert.deepEqual(keySources(db, id), [
    { ip: '192.0.2.1', last_used_at: at(t0 + 60_000) },
    { ip: '192.0.2.2', last_used_at: at(t0 + 30_000) },
  ]);
  assert.equal(row().last_used_ip, '192.0.2.1');
});

test('a key keeps only its most recent source addresses; a deleted key loses them', () => {
  const id = insertKey(generateApiKey());
  const t0 = Date.parse('2026-03-02T10:00:00Z');
  for (let i = 0; i < MAX_KEY_SOURCES + 5; i++)
    assert.equal(touchApiKey(db, id, `198.51.100.${i}`, t0 + i * 1000), true);
  const sources = keySources(db, id);
  assert.equal(sources.length, MAX_KEY_SOURCES);
  assert.equal(sources[0]!.ip, `198.51.100.${MAX_KEY_SOURCES + 4}`, 'most recent first');
  assert.ok(!sources.some((s) => s.ip === '198.51.100.4'), 'the oldest were dropped');
  db.prepare('DELETE FROM api_keys WHERE id = ?').run(id);
  assert.deepEqual(keySources(db, id), []);
  assert.equal(touchApiKey(db, id, '198.51.100.200', t0 + 120_000), false, 'a deleted key is not touched');
});

test('network binding: none, localhost (127.0.0.1 and ::1 only), a filter permit, a missing filter', () => {
  const filter = Number(
    db.prepare("INSERT INTO network_filters (permit) VALUES ('192.0.2.0/24')").run().lastInsertRowid,
  );
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
