import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrations.ts';
import { allMigrations } from './index.ts';

test('migration 026 stores every range as its network, merges bans that now name one range, and bounds the filter id sequence', () => {
  const db = openDatabase(':memory:');
  migrate(
    db,
    allMigrations.filter((m) => m.version < 26),
  );
  const now = Date.now();
  const ban = db.prepare(
    "INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, lifted_at) VALUES (?, ?, '', ?, ?, ?)",
  );
  const longer = Number(ban.run('manual', '203.0.113.77/24', now - 1000, now + 7_200_000, null).lastInsertRowid);
  const shorter = Number(ban.run('manual', '203.0.113.0/24', now - 500, now + 3_600_000, null).lastInsertRowid);
  const history = Number(ban.run('manual', '198.51.100.9/28', now - 9000, now - 5000, null).lastInsertRowid);
  const single = Number(ban.run('sip', '192.0.2.7', now, now + 600_000, null).lastInsertRowid);
  const bare = Number(ban.run('manual', '192.0.2.8', now, now + 600_000, null).lastInsertRowid);
  const slash32 = Number(ban.run('manual', '192.0.2.8/32', now, now + 900_000, null).lastInsertRowid);
  db.prepare(
    "INSERT INTO network_filters (id, permit, deny) VALUES (1, '192.0.2.5/24', " +
      "'203.0.113.7/24,203.0.113.0/24,198.51.100.1/32,198.51.100.1')",
  ).run();
  db.prepare("INSERT INTO network_filters (id, permit, deny) VALUES (2, '10.0.0.1/32', '0.0.0.0/0')").run();
  db.prepare("INSERT INTO settings (key, value) VALUES ('fail2ban', ?)").run(
    JSON.stringify({ maxretry: 5, whitelist: '10.1.2.3/16 2001:db8::7/64, 192.0.2.1 2001:db8::9/128' }),
  );
  // What an unbounded import left: a sequence past 2^53.
  db.prepare("UPDATE sqlite_sequence SET seq = 9007199254740993 WHERE name = 'network_filters'").run();

  migrate(db);

  const row = (id: number) =>
    db.prepare('SELECT ip, lifted_at FROM firewall_bans WHERE id = ?').get(id) as {
      ip: string;
      lifted_at: number | null;
    };
  assert.deepEqual(row(longer), { ip: '203.0.113.0/24', lifted_at: null }, 'the longer ban keeps the range');
  assert.equal(row(shorter).ip, '203.0.113.0/24');
  assert.notEqual(row(shorter).lifted_at, null, 'the shorter duplicate is lifted');
  assert.deepEqual(
    row(history),
    { ip: '198.51.100.0/28', lifted_at: null },
    'history rows are canonical too, and an expired ban stays as it ended',
  );
  assert.equal(row(single).ip, '192.0.2.7');
  assert.deepEqual(
    row(slash32),
    { ip: '192.0.2.8', lifted_at: null },
    'a range of one address is that address, and the longer ban keeps it',
  );
  assert.notEqual(row(bare).lifted_at, null);
  assert.deepEqual(db.prepare('SELECT id, permit, deny FROM network_filters ORDER BY id').all(), [
    { id: 1, permit: '192.0.2.0/24', deny: '203.0.113.0/24,198.51.100.1' },
    { id: 2, permit: '10.0.0.1/32', deny: '0.0.0.0/0' },
  ]);
  const fail2ban = JSON.parse(
    (db.prepare("SELECT value FROM settings WHERE key = 'fail2ban'").get() as { value: string }).value,
  );
  assert.equal(fail2ban.whitelist, '10.1.0.0/16 2001:db8::/64, 192.0.2.1 2001:db8::9');
  assert.equal(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'network_filters'").pluck().get(), 2);
  const next = db.prepare("INSERT INTO network_filters (permit) VALUES ('192.0.2.0/24')").run();
  assert.equal(Number(next.lastInsertRowid), 3, 'the next filter gets an ordinary id');
  db.close();
});
