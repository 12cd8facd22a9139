import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { openDatabase } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { writeSetting } from '../../storage/settings.ts';
import type { AccountFlag } from '../../wire/types.ts';
import { AccountFlags, flagText } from './account-flags.ts';
import { BanStore } from '../bans/index.ts';
import { FAIL2BAN_SETTING_KEY, FirewallState, RegisteredAddresses } from '../filters/index.ts';
import { IntrusionDetector } from './intrusion-detector.ts';

function setup(settings: Record<string, unknown>) {
  const db = openDatabase(':memory:');
  migrate(db);
  writeSetting(db, FAIL2BAN_SETTING_KEY, settings);
  const clock = new ManualClock();
  const state = new FirewallState(db, clock);
  const bans = new BanStore(db, clock);
  const registered = new RegisteredAddresses(() => state.settings, clock);
  const changes: AccountFlag[] = [];
  const flags = new AccountFlags(state, registered, clock, (flag) => changes.push(flag));
  const detector = new IntrusionDetector(state, bans, clock, () => 0, { registered, flags });
  return { clock, bans, registered, flags, changes, detector };
}

describe('failures behind registered phones', () => {
  test('flag the account at its category maxretry, never ban the address, whatever spelling it comes in', () => {
    const { bans, registered, changes, detector } = setup({ maxretry: 5, categories: { sip: { maxretry: 2 } } });
    registered.contactUp('198.51.100.10', '101');
    assert.equal(detector.recordFailure('sip', '::ffff:198.51.100.10', 'x', false, '102'), false);
    assert.equal(changes.length, 0);
    detector.recordFailure('sip', '198.51.100.10', 'x', false, '102');
    assert.deepEqual(
      changes.map((f) => [f.state, f.account, f.address, f.failures, f.registeredAccounts]),
      [['flagged', '102', '198.51.100.10', 2, ['101']]],
    );
    assert.equal(flagText(changes[0]!), 'Account 102 fails from 198.51.100.10, where 101 is registered');
    for (let i = 0; i < 20; i++) detector.recordFailure('http', '198.51.100.10', 'x');
    assert.equal(bans.isBanned('198.51.100.10'), false);
    assert.equal(changes.length, 2, 'the web failures flag "(no account)" at the global maxretry, once');
    assert.equal(flagText(changes[1]!), 'Attempts naming no account fail from 198.51.100.10, where 101 is registered');
  });

  test('a flag clears when the account registers, or a findtime after its last failure', () => {
    const { clock, registered, flags, changes, detector } = setup({ maxretry: 2, findtime: 60 });
    registered.contactUp('198.51.100.10', '101');
    for (const account of ['102', '104', '102', '104'])
      detector.recordFailure('sip', '198.51.100.10', 'x', false, account);
    assert.deepEqual(flags.flags.map((f) => f.account).sort(), ['102', '104']);
    registered.contactUp('198.51.100.10', '102');
    assert.deepEqual(
      changes.filter((f) => f.state === 'cleared').map((f) => f.account),
      ['102'],
    );
    clock.advance(30_000);
    detector.recordFailure('sip', '198.51.100.10', 'x', false, '104');
    clock.advance(59_000);
    flags.expire();
    assert.deepEqual(
      flags.flags.map((f) => f.account),
      ['104'],
      'a failure 59 s ago keeps it',
    );
    clock.advance(1_000);
    flags.expire();
    assert.deepEqual(flags.flags, []);
    assert.equal(changes.at(-1)?.state, 'cleared');
  });

  test('an account name is shown without control characters or direction overrides', () => {
    const { registered, changes, detector } = setup({ maxretry: 1 });
    registered.contactUp('198.51.100.10', '101');
    detector.recordFailure('sip', '198.51.100.10', 'x', false, '10\u001b[31m2\u202e');
    assert.equal(changes[0]?.account, '10?[31m2?');
  });

  test('a whitelisted address with phones is never counted; without phones the address is banned as before', () => {
    const { bans, registered, changes, detector } = setup({ maxretry: 2, whitelist: '198.51.100.10' });
    registered.contactUp('198.51.100.10', '101');
    for (let i = 0; i < 5; i++) detector.recordFailure('sip', '198.51.100.10', 'x', false, '102');
    assert.deepEqual(changes, []);
    for (let i = 0; i < 2; i++) detector.recordFailure('sip', '198.51.100.11', 'x', false, '102');
    assert.equal(bans.isBanned('198.51.100.11'), true);
  });

  test('an IPv6 prefix holding a registered phone is not banned whole: the failing addresses are', () => {
    const { bans, registered, detector } = setup({ maxretry: 3, ipv6ByPrefix: true, ipv6Prefix: 64 });
    registered.contactUp('2001:db8:1:2::5', '205');
    for (const address of ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2::c'])
      detector.recordFailure('sip', address, 'InvalidPassword', false, '300');
    assert.deepEqual(
      bans
        .active()
        .map((b) => b.ip)
        .sort(),
      ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2::c'],
    );
    assert.match(
      bans.active()[0]!.reason,
      /not banned as 2001:db8:1:2::\/64, which holds 2001:db8:1:2::5 \(1 registered phone, 205\)/,
    );
    assert.equal(bans.isBanned('2001:db8:1:2::5'), false);
  });
});
