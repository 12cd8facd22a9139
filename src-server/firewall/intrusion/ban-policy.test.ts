import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BAN_PRESETS,
  incrementedBantime,
  ipv6PrefixOf,
  ordinal,
  presetOf,
  ruleFor,
  slowRuleFor,
} from './ban-policy.ts';
import { FAIL2BAN_DEFAULTS } from '../filters/index.ts';

const increment = { ...FAIL2BAN_DEFAULTS, bantimeIncrement: true };

describe('ban policy', () => {
  test('presets: each MikoPBX preset is recognised, and any differing value or category override is custom', () => {
    for (const [name, values] of Object.entries(BAN_PRESETS)) {
      assert.equal(presetOf({ ...values, slowWindow: true, categories: {} }), name);
      assert.equal(presetOf({ ...values, slowWindow: false, slowMaxretry: 99, categories: {} }), name, 'slow off');
      assert.equal(presetOf({ ...values, slowWindow: true, slowMaxretry: 99, categories: {} }), 'custom');
    }
    assert.equal(presetOf({ ...BAN_PRESETS.paranoid, slowWindow: true, maxretry: 4, categories: {} }), 'custom');
    assert.equal(presetOf({ ...BAN_PRESETS.normal, slowWindow: true, categories: { sip: { maxretry: 3 } } }), 'custom');
    assert.deepEqual(
      BAN_PRESETS.paranoid,
      {
        maxretry: 3,
        findtime: 86_400,
        bantime: 2_592_000,
        slowMaxretry: 6,
        slowFindtime: 604_800,
        slowBantime: 7_776_000,
      },
      '30 days, longer than ipset cap; the slow window 6 in 7 days for 90 days',
    );
  });

  test("every preset's slow window is longer than its first window and bans at least as long", () => {
    for (const [name, p] of Object.entries(BAN_PRESETS)) {
      assert.ok(p.slowFindtime > p.findtime, name);
      assert.ok(p.slowBantime >= p.bantime, name);
      assert.ok(p.slowMaxretry / p.slowFindtime < p.maxretry / p.findtime, `${name}: a slower rate`);
    }
  });

  test('the slow rule of a category: its own values over the global ones; none while off', () => {
    const settings = {
      ...FAIL2BAN_DEFAULTS,
      slowWindow: true,
      slowMaxretry: 6,
      slowFindtime: 86_400,
      slowBantime: 604_800,
      categories: { sip: { slowMaxretry: 4 }, ami: { slowBantime: 60 } },
    };
    assert.deepEqual(slowRuleFor(settings, 'sip'), { maxretry: 4, findtime: 86_400, bantime: 604_800 });
    assert.deepEqual(slowRuleFor(settings, 'ami'), { maxretry: 6, findtime: 86_400, bantime: 60 });
    assert.equal(slowRuleFor({ ...settings, slowWindow: false }, 'sip'), undefined);
  });

  test('a category rule falls back to the global value for each number it leaves out', () => {
    const settings = {
      maxretry: 10,
      findtime: 600,
      bantime: 3600,
      categories: { sip: { maxretry: 3 }, http: { bantime: 60 } },
    };
    assert.deepEqual(ruleFor(settings, 'sip'), { maxretry: 3, findtime: 600, bantime: 3600 });
    assert.deepEqual(ruleFor(settings, 'http'), { maxretry: 10, findtime: 600, bantime: 60 });
    assert.deepEqual(ruleFor(settings, 'ami'), { maxretry: 10, findtime: 600, bantime: 3600 });
  });

  test('increment with multipliers 1 2 4: the third ban (two earlier) lasts 2400 s; the last multiplier repeats; maxtime caps', () => {
    const settings = { ...increment, bantimeMultipliers: [1, 2, 4] };
    assert.deepEqual(
      [0, 1, 2, 3, 9].map((n) => incrementedBantime(settings, 600, n)),
      [600, 1200, 2400, 2400, 2400],
    );
    assert.equal(incrementedBantime({ ...settings, bantimeMaxtime: 1800 }, 600, 2), 1800);
    assert.equal(incrementedBantime({ ...settings, bantimeFactor: 1.5 }, 600, 1), 1800, 'factor multiplies');
  });

  test('increment without multipliers doubles (fail2ban jail.conf formula), stops at 2^20, and is off unless enabled', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => incrementedBantime(increment, 600, n)),
      [600, 1200, 2400, 4800],
    );
    assert.equal(incrementedBantime({ ...increment, bantimeMaxtime: 1e12 }, 60, 40), 60 * 2 ** 20);
    assert.equal(incrementedBantime(FAIL2BAN_DEFAULTS, 600, 5), 600);
  });

  test('rndtime adds up to that many seconds after the cap', () => {
    const settings = { ...increment, bantimeRndtime: 30, bantimeMaxtime: 1000 };
    assert.equal(
      incrementedBantime(settings, 600, 1, () => 0),
      1000,
    );
    assert.equal(
      incrementedBantime(settings, 600, 1, () => 0.999999),
      1030,
    );
  });

  test('IPv6 prefixes are canonical networks; IPv4 has none', () => {
    assert.equal(ipv6PrefixOf('2001:db8:1:2::a', 64), '2001:db8:1:2::/64');
    assert.equal(ipv6PrefixOf('2001:db8:1:2:ffff::1', 48), '2001:db8:1::/48');
    assert.equal(ipv6PrefixOf('2001:db8::1', 128), undefined, 'a /128 is the address itself, never a second value');
    assert.equal(ipv6PrefixOf('203.0.113.1', 64), undefined);
  });

  test('ordinals', () => {
    assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111].map(ordinal), [
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '103rd',
      '111th',
    ]);
  });
});
