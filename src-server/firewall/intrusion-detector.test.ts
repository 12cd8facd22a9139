import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../clock.ts';
import { openDatabase } from '../storage/database.ts';
import { migrate } from '../storage/migrations.ts';
import { writeSetting } from '../storage/settings.ts';
import { BanStore } from './ban-store.ts';
import { FAIL2BAN_SETTING_KEY } from './fail2ban-settings.ts';
import { FirewallState } from './firewall-state.ts';
import { IntrusionDetector } from './intrusion-detector.ts';

function setup(settings: Record<string, unknown>) {
  const db = openDatabase(':memory:');
  migrate(db);
  writeSetting(db, FAIL2BAN_SETTING_KEY, settings);
  const clock = new ManualClock();
  const state = new FirewallState(db);
  const bans = new BanStore(db, clock);
  return { db, clock, bans, detector: new IntrusionDetector(state, bans, clock) };
}

describe('intrusion detector', () => {
  test('maxretry failures within findtime ban for bantime; older failures fall out of the window', () => {
    const { clock, bans, detector } = setup({ maxretry: 3, findtime: 60, bantime: 120 });
    assert.equal(detector.recordFailure('sip', '203.0.113.1', 'x'), false);
    clock.advance(30_000);
    assert.equal(detector.recordFailure('sip', '203.0.113.1', 'x'), false);
    clock.advance(31_000); // the first failure is now older than findtime
    assert.equal(detector.recordFailure('sip', '203.0.113.1', 'x'), false);
    assert.equal(bans.isBanned('203.0.113.1'), false);
    clock.advance(1_000);
    assert.equal(detector.recordFailure('sip', '203.0.113.1', 'x'), true, 'three within the last 60 s');
    assert.equal(bans.isBanned('203.0.113.1'), true);
    clock.advance(119_999);
    assert.equal(bans.isBanned('203.0.113.1'), true);
    clock.advance(1);
    assert.equal(bans.isBanned('203.0.113.1'), false, 'ends exactly at bantime');
  });

  test('categories and addresses are counted apart; IPv6 text is normalised; garbage is ignored', () => {
    const { bans, detector } = setup({ maxretry: 2, findtime: 60, bantime: 60 });
    detector.recordFailure('sip', '2001:DB8::1', 'x');
    detector.recordFailure('ami', '2001:db8::1', 'x');
    detector.recordFailure('sip', '2001:db8::2', 'x');
    assert.equal(bans.isBanned('2001:db8::1'), false);
    detector.recordFailure('sip', '2001:db8:0::1', 'x');
    assert.equal(bans.isBanned('2001:db8::1'), true);
    assert.deepEqual(bans.active().map((b) => `${b.category} ${b.ip}`), ['sip 2001:db8::1']);
    for (const junk of ['', 'nope', 'fe80::1%eth0', '1.2.3']) assert.equal(detector.recordFailure('sip', junk, 'x'), false);
  });

  test('bans survive a restart of the store; a ban of a new category of a banned address is separate', () => {
    const { db, clock, bans, detector } = setup({ maxretry: 1, findtime: 60, bantime: 600 });
    detector.recordFailure('http', '198.51.100.4', 'x');
    detector.recordFailure('iax', '198.51.100.4', 'x');
    const reloaded = new BanStore(db, clock);
    assert.deepEqual(reloaded.active().map((b) => b.category).sort(), ['http', 'iax']);
    assert.equal(bans.forIp('198.51.100.4').length, 2);
  });
});
