import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCidr } from '../../net/cidr.ts';
import { openDatabase } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { liftBansCoveredBy } from './covered-bans.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function withBans(values: string[]) {
  const db = openDatabase(':memory:');
  migrate(db);
  const insert = db.prepare(
    "INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at) VALUES (?, ?, '', ?, ?)",
  );
  for (const value of values) insert.run(value.includes('/') ? 'manual' : 'sip', value, NOW - 1000, NOW + 3_600_000);
  insert.run('sip', '10.1.2.200', NOW - 7200_000, NOW - 3600_000); // already expired: not in force
  return db;
}

const lift = (values: string[], ranges: string[]) => {
  const db = withBans(values);
  const outcome = liftBansCoveredBy(
    db,
    ranges.map((text) => ({ text, cidr: parseCidr(text)! })),
    NOW,
    'test',
  );
  return {
    lifted: outcome.lifted.map((b) => b.ip).sort(),
    wider: outcome.wider.map((b) => `${b.ip} over ${b.covers}`).sort(),
  };
};

describe('bans covered by a new whitelist entry or trusted network', () => {
  const bans = [
    '10.1.2.3',
    '10.1.3.4',
    '10.200.0.1',
    '11.0.0.1',
    '10.1.2.0/28',
    '10.0.0.0/8',
    '2001:db8:1:2::a',
    '2001:db8::5',
    '2001:db8:1:2::/64',
    '198.51.100.9',
  ];

  test('IPv4 ranges of every width lift exactly the bans inside them; wider range bans are reported and carved', () => {
    assert.deepEqual(lift(bans, ['10.1.2.0/24']), {
      lifted: ['10.1.2.0/28', '10.1.2.3'],
      wider: ['10.0.0.0/8 over 10.1.2.0/24'],
    });
    assert.deepEqual(lift(bans, ['10.1.0.0/16']).lifted, ['10.1.2.0/28', '10.1.2.3', '10.1.3.4']);
    assert.deepEqual(lift(bans, ['10.1.2.3']).lifted, ['10.1.2.3']);
    assert.deepEqual(
      lift(bans, ['8.0.0.0/6']).lifted,
      ['10.0.0.0/8', '10.1.2.0/28', '10.1.2.3', '10.1.3.4', '10.200.0.1', '11.0.0.1'],
      'a /6 has no fixed octet',
    );
    assert.deepEqual(lift(bans, ['10.0.0.0/7']).lifted.length, 6);
  });

  test('IPv6 ranges find addresses whatever their compressed text; the expired ban is history, not lifted', () => {
    assert.deepEqual(lift(bans, ['2001:db8::/32']).lifted, ['2001:db8:1:2::/64', '2001:db8:1:2::a', '2001:db8::5']);
    assert.deepEqual(lift(bans, ['2001:db8:1:2::a']), {
      lifted: ['2001:db8:1:2::a'],
      wider: ['2001:db8:1:2::/64 over 2001:db8:1:2::a'],
    });
    assert.deepEqual(lift(bans, ['10.1.2.200']).lifted, []);
    assert.deepEqual(lift(bans, []), { lifted: [], wider: [] });
  });

  test('a wider ban is carved around the protected address: the pieces keep its category and end, and nothing holds the address', () => {
    const db = withBans(['127.0.96.0/24']);
    const outcome = liftBansCoveredBy(db, [{ text: '127.0.96.5', cidr: parseCidr('127.0.96.5')! }], NOW, 'admin');
    assert.deepEqual(outcome.wider[0]!.pieces, [
      '127.0.96.0/30',
      '127.0.96.4',
      '127.0.96.6/31',
      '127.0.96.8/29',
      '127.0.96.16/28',
      '127.0.96.32/27',
      '127.0.96.64/26',
      '127.0.96.128/25',
    ]);
    const inForce = db
      .prepare('SELECT ip, category, expires_at, reason FROM firewall_bans WHERE lifted_at IS NULL AND expires_at > ?')
      .all(NOW) as Array<{ ip: string; category: string; expires_at: number; reason: string }>;
    assert.equal(inForce.length, 8);
    assert.ok(inForce.every((b) => b.category === 'manual' && b.expires_at === NOW + 3_600_000));
    assert.match(inForce[0]!.reason, /carved around 127\.0\.96\.5 \(whitelisted\)/);
    const wide = db.prepare("SELECT lifted_by FROM firewall_bans WHERE ip = '127.0.96.0/24'").get() as {
      lifted_by: string;
    };
    assert.match(wide.lifted_by, /^admin \(carved around 127\.0\.96\.5 \(whitelisted\)\)$/);
  });
});
