import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import { parseCidr } from '../../net/cidr.ts';
import {
  cidrsOverlap,
  coversHostLoopback,
  decisionId,
  decisionParts,
  deletedDecisionJson,
  isHostLoopback,
  normalizeCidrText,
  secondsLeft,
  splitList,
} from '../model/index.ts';
import { defaultRules, manualBanValues, type NetworkFilter } from './filters.ts';
import { composeWhitelist } from './whitelist.ts';

const filter = (id: number, permit: string, deny: string, trusted = false): NetworkFilter => ({
  id,
  permit,
  deny,
  description: '',
  newer_block_ip: trusted,
  local_network: false,
  rules: defaultRules(),
});

describe('addresses', () => {
  test('normalises IPv4, IPv6 and ranges; rejects zones and garbage', () => {
    assert.equal(normalizeCidrText(' 2001:DB8:0:0::1 '), '2001:db8::1');
    assert.equal(normalizeCidrText('2001:db8::/32'), '2001:db8::/32');
    assert.equal(normalizeCidrText('10.0.0.0/8'), '10.0.0.0/8');
    for (const bad of ['fe80::1%eth0', 'fe80::1%eth0/64', '10.0.0.0/33', '1.2.3', 'abc', '', '::/129'])
      assert.equal(normalizeCidrText(bad), undefined, bad);
    assert.deepEqual(splitList(' a, b  c,,d '), ['a', 'b', 'c', 'd']);
  });

  test('overlap is symmetric, per family, and honours prefixes', () => {
    const c = (text: string) => parseCidr(text)!;
    assert.ok(cidrsOverlap(c('10.0.0.0/8'), c('10.1.2.3')));
    assert.ok(cidrsOverlap(c('10.1.2.3'), c('10.0.0.0/8')));
    assert.ok(!cidrsOverlap(c('10.0.0.0/8'), c('11.0.0.0/8')));
    assert.ok(cidrsOverlap(c('2001:db8::/32'), c('2001:db8:5::/48')));
    assert.ok(!cidrsOverlap(c('::/0'), c('0.0.0.0/0')), 'families never overlap');
    assert.ok(
      coversHostLoopback(c('127.0.0.0/8')) && coversHostLoopback(c('::1')) && !coversHostLoopback(c('127.0.0.2')),
    );
    assert.ok(isHostLoopback('::ffff:127.0.0.1') && isHostLoopback('::1') && !isHostLoopback('127.0.0.2'));
  });
});

describe('decisions', () => {
  test('id is crc32(value + scenario) & 0x7fffffff, and the parts render all seven fields', () => {
    assert.equal(decisionId('1.2.3.4', 'pbx/sip'), crc32('1.2.3.4pbx/sip') & 0x7fffffff);
    const parts = decisionParts({ value: '2001:db8::/32', scenario: 'pbx/manual' });
    const decision = JSON.parse(`${parts.head}8760h${parts.tail}`);
    assert.deepEqual(decision, {
      id: decisionId('2001:db8::/32', 'pbx/manual'),
      origin: 'pbx-networkfilters',
      type: 'ban',
      scope: 'Range',
      value: '2001:db8::/32',
      duration: '8760h',
      scenario: 'pbx/manual',
    });
    assert.equal(JSON.parse(deletedDecisionJson({ value: '1.2.3.4', scenario: 'pbx/http' })).duration, '0s');
    assert.equal(secondsLeft(10_000, 9_999), 1);
    assert.equal(secondsLeft(10_000, 10_000), 1, 'at least 1s');
    assert.equal(secondsLeft(600_000, 0), 600);
    assert.equal(secondsLeft(600_000, 500), 600, 'whole seconds, rounded up');
  });

  test('filter deny values: catch-alls and host loopback are not decisions; duplicates collapse', () => {
    const filters = [
      filter(1, '10.0.0.0/8', '0.0.0.0/0,::/0,203.0.113.0/24,127.0.0.0/8'),
      filter(2, '10.0.0.0/8', '203.0.113.0/24,198.51.100.1,::1'),
    ];
    assert.deepEqual(manualBanValues(filters), ['203.0.113.0/24', '198.51.100.1']);
  });
});

describe('whitelist composition', () => {
  test('trusted permits in id order, then the fail2ban whitelist; duplicates (10.0.0.1 = 10.0.0.1/32) dropped', () => {
    const filters = [
      filter(1, '192.0.2.0/24', '0.0.0.0/0', true),
      filter(2, '198.51.100.0/24', '0.0.0.0/0', false),
      filter(3, '10.0.0.1/32', '0.0.0.0/0', true),
    ];
    assert.deepEqual(
      composeWhitelist(
        filters,
        { whitelist: '10.0.0.1, 2001:db8::/32 192.0.2.0/24,2001:DB8::/32 junk', whitelistEntries: [] },
        0,
      ),
      ['192.0.2.0/24', '10.0.0.1/32', '2001:db8::/32'],
    );
    assert.deepEqual(composeWhitelist([], { whitelist: '', whitelistEntries: [] }, 0), []);
  });

  test('whitelist entries follow the plain list while in force, and leave at their end', () => {
    const entries = [
      { value: '198.51.100.7', comment: 'office', until: null },
      { value: '203.0.113.0/24', comment: 'migration', until: '2026-01-02T00:00:00Z' },
    ];
    const settings = { whitelist: '10.0.0.1', whitelistEntries: entries };
    assert.deepEqual(composeWhitelist([], settings, Date.parse('2026-01-01T23:59:59Z')), [
      '10.0.0.1',
      '198.51.100.7',
      '203.0.113.0/24',
    ]);
    assert.deepEqual(composeWhitelist([], settings, Date.parse('2026-01-02T00:00:00Z')), ['10.0.0.1', '198.51.100.7']);
  });
});
