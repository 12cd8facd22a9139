import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BansOfIp } from './bans-of-ip.ts';

const ban = (category: string, expiresAt: number) => ({ category, expiresAt });

test('an address holds one ban per kind: a new ban of a kind replaces the old, others stay', () => {
  const bans = new BansOfIp<ReturnType<typeof ban>>();
  const sip = ban('sip', 100);
  bans.set(sip);
  bans.set(ban('http', 200));
  const longer = ban('sip', 300);
  bans.set(longer);
  assert.equal(bans.size, 2);
  assert.equal(bans.get('sip'), longer);
  assert.deepEqual(
    bans.values().map((b) => b.category),
    ['sip', 'http'],
  );
  bans.delete('sip');
  assert.equal(bans.get('sip'), undefined);
  assert.equal(bans.size, 1);
  bans.delete('ami'); // a kind it does not hold: nothing changes
  assert.equal(bans.size, 1);
});

test('bans that ended by a time are dropped, the rest kept', () => {
  const bans = new BansOfIp<ReturnType<typeof ban>>();
  for (const [category, end] of [
    ['sip', 10],
    ['http', 20],
    ['ami', 30],
  ] as const)
    bans.set(ban(category, end));
  const before = bans.values();
  bans.dropEndedBy(5);
  assert.equal(bans.values(), before, 'nothing ended: the same array is kept');
  bans.dropEndedBy(20);
  assert.deepEqual(
    bans.values().map((b) => b.category),
    ['ami'],
  );
});
