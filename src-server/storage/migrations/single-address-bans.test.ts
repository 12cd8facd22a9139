import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrations.ts';
import { cidrContains } from '../../net/cidr.ts';
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

test('migration 028 lifts or carves the bans in force that hold a never-banned address (loopback, unspecified, whitelisted, trusted)', () => {
  const db = openDatabase(':memory:');
  migrate(
    db,
    allMigrations.filter((m) => m.version < 28),
  );
  const now = Date.now();
  db.prepare("INSERT INTO settings (key, value) VALUES ('fail2ban', ?)").run(
    JSON.stringify({ whitelist: '10.9.0.5', whitelistEntries: [{ value: '10.8.0.0/16', until: null }] }),
  );
  db.prepare("INSERT INTO network_filters (permit, deny, newer_block_ip) VALUES ('172.16.0.0/12', '', 1)").run();
  const ban = db.prepare(
    "INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, services, banned_by) VALUES (?, ?, 'r', ?, ?, ?, ?)",
  );
  const prefix = Number(ban.run('http', '::/64', now, now + 600_000, null, 'pbx').lastInsertRowid);
  const wide = Number(ban.run('manual', '10.9.0.0/24', now, now + 900_000, '["SIP"]', 'admin').lastInsertRowid);
  const whitelisted = Number(ban.run('sip', '10.8.1.1', now, now + 600_000, null, 'pbx').lastInsertRowid);
  const trusted = Number(ban.run('manual', '172.16.5.0/24', now, now + 600_000, null, 'admin').lastInsertRowid);
  const clean = Number(ban.run('manual', '198.51.100.0/24', now, now + 600_000, null, 'admin').lastInsertRowid);

  migrate(db);

  const lifted = (id: number) =>
    (db.prepare('SELECT lifted_at FROM firewall_bans WHERE id = ?').get(id) as { lifted_at: number | null }).lifted_at;
  for (const id of [prefix, wide, whitelisted, trusted]) assert.notEqual(lifted(id), null, `ban ${id} ends`);
  assert.equal(lifted(clean), null);
  const inForce = db
    .prepare('SELECT category, ip, reason, expires_at, services, banned_by FROM firewall_bans WHERE lifted_at IS NULL')
    .all() as Array<{ category: string; ip: string; reason: string; expires_at: number; services: string | null }>;
  const values = inForce.map((b) => b.ip);
  for (const held of ['::', '::1', '10.9.0.5', '10.8.1.1', '172.16.5.1'])
    assert.ok(!values.includes(held) && !values.some((v) => v.includes('/') && cidrContains(v, held)), held);
  const pieces = inForce.filter((b) => b.ip.startsWith('10.9.0.'));
  assert.deepEqual(pieces.map((b) => b.ip).sort(), [
    '10.9.0.0/30',
    '10.9.0.128/25',
    '10.9.0.16/28',
    '10.9.0.32/27',
    '10.9.0.4',
    '10.9.0.6/31',
    '10.9.0.64/26',
    '10.9.0.8/29',
  ]);
  assert.ok(pieces.every((b) => b.expires_at === now + 900_000 && b.services === '["SIP"]' && b.category === 'manual'));
  assert.match(pieces[0]!.reason, /^r \(carved around 10\.9\.0\.5 \(never banned\)\)$/);
  assert.ok(values.includes('::2/127') && values.includes('2001:db8::/32') === false, 'the /64 is carved, not lost');
});
