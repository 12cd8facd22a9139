import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrations.ts';
import { allMigrations } from './index.ts';

test('migration 028 stores bans of one address as the address and ends the shorter duplicates, keeping their history', () => {
  const db = openDatabase(':memory:');
  migrate(
    db,
    allMigrations.filter((m) => m.version < 28),
  );
  const now = Date.now();
  const ban = db.prepare(
    "INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, lifted_at) VALUES (?, ?, '', ?, ?, ?)",
  );
  const imported = Number(ban.run('manual', '127.0.57.7/32', now, now + 600_000, null).lastInsertRowid);
  const bare = Number(ban.run('manual', '198.18.40.11', now, now + 600_000, null).lastInsertRowid);
  const slash32 = Number(ban.run('manual', '198.18.40.11/32', now, now + 900_000, null).lastInsertRowid);
  const prefix128 = Number(ban.run('sip', '2001:db8::7/128', now, now + 600_000, null).lastInsertRowid);
  const otherCategory = Number(ban.run('http', '2001:db8::7', now, now + 300_000, null).lastInsertRowid);
  const history = Number(ban.run('manual', '192.0.2.9/32', now - 9000, now - 5000, null).lastInsertRowid);
  const range = Number(ban.run('manual', '203.0.113.0/24', now, now + 600_000, null).lastInsertRowid);

  migrate(db);

  const row = (id: number) =>
    db.prepare('SELECT ip, lifted_at, lifted_by FROM firewall_bans WHERE id = ?').get(id) as {
      ip: string;
      lifted_at: number | null;
      lifted_by: string | null;
    };
  assert.deepEqual(row(imported), { ip: '127.0.57.7', lifted_at: null, lifted_by: null });
  assert.deepEqual(row(slash32), { ip: '198.18.40.11', lifted_at: null, lifted_by: null }, 'the longer ban stays');
  assert.equal(row(bare).ip, '198.18.40.11');
  assert.equal(row(bare).lifted_by, 'same address (migration 28)', 'the shorter duplicate ends, its row kept');
  assert.deepEqual(row(prefix128), { ip: '2001:db8::7', lifted_at: null, lifted_by: null });
  assert.equal(row(otherCategory).lifted_at, null, 'another category of the same address is another ban');
  assert.deepEqual(row(history), { ip: '192.0.2.9', lifted_at: null, lifted_by: null }, 'history rows too');
  assert.equal(row(range).ip, '203.0.113.0/24');
  assert.equal((db.prepare('SELECT COUNT(*) AS n FROM firewall_bans').get() as { n: number }).n, 7, 'no row lost');
});
