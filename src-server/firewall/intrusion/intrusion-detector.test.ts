import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../clock.ts';
import { openDatabase } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { writeSetting } from '../../storage/settings.ts';
import { BanStore } from '../bans/index.ts';
import { FAIL2BAN_SETTING_KEY, FirewallState } from '../filters/index.ts';
import { IntrusionDetector } from './intrusion-detector.ts';

/** One field of every ban in force, sorted. */
const sortedActive = (bans: BanStore, field: 'ip' | 'category') =>
  bans
    .active()
    .map((ban) => ban[field])
    .sort();

function setup(settings: Record<string, unknown>) {
  const db = openDatabase(':memory:');
  migrate(db);
  writeSetting(db, FAIL2BAN_SETTING_KEY, settings);
  const clock = new ManualClock();
  const state = new FirewallState(db, clock);
  const bans = new BanStore(db, clock);
  return { db, clock, state, bans, detector: new IntrusionDetector(state, bans, clock, () => 0) };
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
    assert.deepEqual(
      bans.active().map((b) => `${b.category} ${b.ip}`),
      ['sip 2001:db8::1'],
    );
    for (const junk of ['', 'nope', 'fe80::1%eth0', '1.2.3'])
      assert.equal(detector.recordFailure('sip', junk, 'x'), false);
  });

  test('bans survive a restart of the store; a ban of a new category of a banned address is separate', () => {
    const { db, clock, bans, detector } = setup({ maxretry: 1, findtime: 60, bantime: 600 });
    detector.recordFailure('http', '198.51.100.4', 'x');
    detector.recordFailure('iax', '198.51.100.4', 'x');
    const reloaded = new BanStore(db, clock);
    assert.deepEqual(sortedActive(reloaded, 'category'), ['http', 'iax']);
    assert.equal(bans.forIp('198.51.100.4').length, 2);
  });

  test('per-category rules: SIP maxretry 3 bans after three failures, HTTP maxretry 10 does not after nine', () => {
    const { bans, detector } = setup({
      maxretry: 20,
      findtime: 600,
      bantime: 600,
      categories: { sip: { maxretry: 3 }, http: { maxretry: 10, bantime: 60 } },
    });
    for (let i = 0; i < 3; i++) detector.recordFailure('sip', '203.0.113.10', 'x');
    for (let i = 0; i < 9; i++) detector.recordFailure('http', '203.0.113.20', 'x');
    assert.equal(bans.isBanned('203.0.113.10'), true);
    assert.equal(bans.isBanned('203.0.113.20'), false);
    assert.equal(detector.recordFailure('http', '203.0.113.20', 'x'), true, 'the tenth bans');
    const http = bans.get('http', '203.0.113.20')!;
    assert.equal((http.expiresAt - http.bannedAt) / 1000, 60, "HTTP's own bantime");
    const sip = bans.get('sip', '203.0.113.10')!;
    assert.equal((sip.expiresAt - sip.bannedAt) / 1000, 600, 'SIP falls back to the global bantime');
  });

  test('repeat offenders: with multipliers 1 2 4 the third ban lasts 2400 s and is numbered 3; overalljails counts every category', () => {
    const { clock, bans, detector } = setup({
      maxretry: 1,
      findtime: 60,
      bantime: 600,
      bantimeIncrement: true,
      bantimeMultipliers: [1, 2, 4],
    });
    const lengths: number[] = [];
    for (let i = 0; i < 3; i++) {
      assert.equal(detector.recordFailure('sip', '198.51.100.9', 'x'), true);
      const ban = bans.get('sip', '198.51.100.9')!;
      lengths.push((ban.expiresAt - ban.bannedAt) / 1000);
      assert.equal(ban.banNumber, i + 1);
      clock.advance(ban.expiresAt - clock.now());
    }
    assert.deepEqual(lengths, [600, 1200, 2400]);
    detector.recordFailure('ami', '198.51.100.9', 'x');
    assert.equal(bans.get('ami', '198.51.100.9')!.banNumber, 1, 'other categories count apart');
  });

  test('overalljails: earlier bans in any category count', () => {
    const { bans, detector } = setup({
      maxretry: 1,
      findtime: 60,
      bantime: 600,
      bantimeIncrement: true,
      bantimeOveralljails: true,
    });
    detector.recordFailure('sip', '198.51.100.10', 'x');
    detector.recordFailure('http', '198.51.100.10', 'x');
    const http = bans.get('http', '198.51.100.10')!;
    assert.equal(http.banNumber, 2);
    assert.equal((http.expiresAt - http.bannedAt) / 1000, 1200);
  });

  test('IPv6 by prefix: three addresses of one /64 give one Range ban that covers a fourth; off, they count apart', () => {
    const { bans, detector } = setup({ maxretry: 3, findtime: 600, bantime: 600, ipv6ByPrefix: true, ipv6Prefix: 64 });
    detector.recordFailure('sip', '2001:db8:1:2::a', 'x');
    detector.recordFailure('sip', '2001:db8:1:2::b', 'x');
    assert.equal(detector.recordFailure('sip', '2001:db8:1:2::c', 'x'), true);
    assert.deepEqual(
      bans.active().map((b) => `${b.category} ${b.ip}`),
      ['sip 2001:db8:1:2::/64'],
    );
    assert.equal(bans.isBanned('2001:db8:1:2::d'), true, 'a fourth address of the /64 is refused here too');
    assert.equal(bans.isBanned('2001:db8:1:3::a'), false);
    const off = setup({ maxretry: 3, findtime: 600, bantime: 600 });
    for (const ip of ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2::c'])
      off.detector.recordFailure('sip', ip, 'x');
    assert.equal(off.bans.active().length, 0);
  });

  test('IPv6 by prefix never bans ::1: the /64 of ::2, ::3, ::4 holds host loopback, so the addresses are banned one by one', () => {
    const { bans, detector } = setup({ maxretry: 3, findtime: 600, bantime: 600, ipv6ByPrefix: true, ipv6Prefix: 64 });
    for (const ip of ['::2', '::3', '::4']) detector.recordFailure('http', ip, 'bad password');
    assert.deepEqual(sortedActive(bans, 'ip'), ['::2', '::3', '::4']);
    assert.match(bans.active()[0]!.reason, /not banned as ::\/64, which holds ::1 \(host loopback\)/);
    assert.equal(bans.isBanned('::1'), false);
    assert.equal(bans.isBanned('::5'), false, 'no range was banned');
  });

  test('IPv6 by prefix with ipv6Prefix 128 bans the address itself, never a second value `…/128`', () => {
    const { bans, detector } = setup({ maxretry: 2, findtime: 600, bantime: 600, ipv6ByPrefix: true, ipv6Prefix: 128 });
    detector.recordFailure('sip', '2001:db8::7', 'x');
    detector.recordFailure('sip', '2001:db8::7', 'x');
    assert.deepEqual(sortedActive(bans, 'ip'), ['2001:db8::7']);
  });

  test('unspecified sources (0.0.0.0, 0.1.2.3, ::) are never counted nor banned', () => {
    const { bans, detector } = setup({ maxretry: 1, findtime: 600, bantime: 600 });
    for (const ip of ['0.0.0.0', '0.1.2.3', '::', '::ffff:0.0.0.0'])
      assert.equal(detector.recordFailure('sip', ip, 'x'), false, ip);
    assert.equal(bans.active().length, 0);
  });

  test('IPv6 by prefix with a whitelisted address inside: the failing addresses are banned one by one, and the reason says why', () => {
    const { bans, detector } = setup({
      maxretry: 3,
      findtime: 600,
      bantime: 600,
      ipv6ByPrefix: true,
      whitelist: '2001:db8:1:2::100',
    });
    for (const ip of ['2001:db8:1:2::a', '2001:db8:1:2::b', '2001:db8:1:2::a'])
      detector.recordFailure('sip', ip, 'bad password');
    assert.deepEqual(sortedActive(bans, 'ip'), ['2001:db8:1:2::a', '2001:db8:1:2::b']);
    assert.match(
      bans.active()[0]!.reason,
      /not banned as 2001:db8:1:2::\/64, which holds 2001:db8:1:2::100 \(whitelisted\)/,
    );
    assert.equal(bans.isBanned('2001:db8:1:2::100'), false);
  });

  test('a whitelist entry with an end: failures are not counted until it ends, then they count again', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const until = new Date(start + 60_000).toISOString();
    const { clock, state, bans, detector } = setup({
      maxretry: 2,
      findtime: 600,
      bantime: 600,
      whitelistEntries: [{ value: '192.0.2.50', comment: 'migration', until }],
    });
    assert.equal(JSON.parse(state.whitelistJson).includes('192.0.2.50'), true);
    detector.recordFailure('sip', '192.0.2.50', 'x');
    detector.recordFailure('sip', '192.0.2.50', 'x');
    assert.equal(bans.isBanned('192.0.2.50'), false);
    clock.advance(60_000);
    assert.equal(JSON.parse(state.whitelistJson).includes('192.0.2.50'), false, 'it leaves /v1/whitelist at its end');
    detector.recordFailure('sip', '192.0.2.50', 'x');
    detector.recordFailure('sip', '192.0.2.50', 'x');
    assert.equal(bans.isBanned('192.0.2.50'), true);
  });
  describe('the slow window', () => {
    const policy = {
      maxretry: 5,
      findtime: 600,
      bantime: 600,
      slowMaxretry: 8,
      slowFindtime: 86_400,
      slowBantime: 604_800,
    };
    const HALF_HOUR = 1_800_000;

    test('a slow brute force under the first rule is banned by the second, for its own bantime', () => {
      const { clock, bans, detector } = setup({ ...policy, slowWindow: true });
      for (let i = 1; i < 8; i++) {
        assert.equal(detector.recordFailure('sip', '203.0.113.7', 'InvalidPassword'), false, `failure ${i}`);
        clock.advance(HALF_HOUR);
      }
      assert.equal(detector.recordFailure('sip', '203.0.113.7', 'InvalidPassword'), true, 'the 8th within 24 h');
      const [ban] = bans.active();
      assert.equal(ban?.ip, '203.0.113.7');
      assert.match(ban!.reason, /^InvalidPassword; slow window: 8 failures within 86400 s/);
      clock.advance(604_800_000 - 1);
      assert.equal(bans.isBanned('203.0.113.7'), true);
      clock.advance(1);
      assert.equal(bans.isBanned('203.0.113.7'), false, 'ends at slowBantime');
    });

    test('a burst trips the first rule and gets its bantime; off, the slow pace never bans', () => {
      const on = setup({ ...policy, slowWindow: true });
      for (let i = 0; i < 5; i++) on.detector.recordFailure('ami', '198.51.100.3', 'FailedACL');
      const [ban] = on.bans.active();
      assert.equal(ban?.reason, 'FailedACL');
      on.clock.advance(600_000);
      assert.equal(on.bans.isBanned('198.51.100.3'), false, "the first rule's 600 s");

      const off = setup({ ...policy, slowWindow: false });
      for (let i = 0; i < 100; i++) {
        assert.equal(off.detector.recordFailure('sip', '203.0.113.8', 'x'), false);
        off.clock.advance(HALF_HOUR);
      }
    });

    test("failures older than the slow window fall out of it; a category's own slow numbers apply", () => {
      const { clock, bans, detector } = setup({
        ...policy,
        slowWindow: true,
        categories: { iax: { slowMaxretry: 3, slowFindtime: 7200 } },
      });
      for (let i = 0; i < 7; i++) {
        detector.recordFailure('sip', '203.0.113.9', 'x');
        clock.advance(4 * 3_600_000); // 7 failures over 28 h: never 8 within 24 h
      }
      assert.equal(bans.isBanned('203.0.113.9'), false);
      detector.recordFailure('iax', '203.0.113.10', 'x');
      clock.advance(3_000_000);
      detector.recordFailure('iax', '203.0.113.10', 'x');
      clock.advance(3_000_000);
      assert.equal(detector.recordFailure('iax', '203.0.113.10', 'x'), true, 'IAX: 3 within 2 h');
    });
  });
});
