import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCidr } from '../../net/cidr.ts';
import { carvedNote, NeverBannedSet, refusalText, type BanScreen } from './never-banned.ts';

const rule = new NeverBannedSet([
  { text: '10.0.0.5', cidr: parseCidr('10.0.0.5')!, kind: 'whitelisted' },
  { text: '172.16.0.0/12', cidr: parseCidr('172.16.0.0/12')!, kind: 'trusted' },
]);

/** A screen as short text: `clear`, `refused <holder>`, or `carved <n> around <holes>`. */
function brief(screen: BanScreen): string {
  if (screen.kind === 'clear') return 'clear';
  if (screen.kind === 'refused') return `refused ${screen.holder.text}`;
  return `carved ${screen.pieces.length} around ${screen.holes.map((h) => h.text).join(' ')}`;
}

describe('the never-banned rule', () => {
  test('addresses: loopback, unspecified, whitelisted and trusted are refused; 127.0.0.2 is another host', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1', 'refused 127.0.0.1'],
      ['::1', 'refused ::1'],
      ['0.0.0.0', 'refused 0.0.0.0/8'],
      ['0.1.2.3', 'refused 0.0.0.0/8'],
      ['::', 'refused ::'],
      ['10.0.0.5', 'refused 10.0.0.5'],
      ['172.20.1.1', 'refused 172.16.0.0/12'],
      ['127.0.0.2', 'clear'],
      ['198.51.100.7', 'clear'],
      ['2001:db8::1', 'clear'],
    ];
    for (const [value, expected] of cases) assert.equal(brief(rule.screen(value)), expected, value);
    assert.equal(rule.holderOf('0.1.2.3')?.kind, 'unspecified');
    assert.equal(rule.holderOf('127.0.0.2'), undefined);
  });

  test('ranges: inside a never-banned range refused, holding one carved into the CIDRs around it', () => {
    const cases: Array<[string, string]> = [
      ['0.0.0.0/8', 'refused 0.0.0.0/8'],
      ['172.16.5.0/24', 'refused 172.16.0.0/12'],
      ['127.0.0.0/8', 'carved 24 around 127.0.0.1'],
      ['10.0.0.0/24', 'carved 8 around 10.0.0.5'],
      ['0.0.0.0/7', 'carved 1 around 0.0.0.0/8'],
      ['::/64', 'carved 77 around ::1 :: ::ffff:0:0/96'],
      ['::fffe:0:0/95', 'carved 1 around ::ffff:0:0/96'],
      ['198.51.100.0/24', 'clear'],
    ];
    for (const [value, expected] of cases) assert.equal(brief(rule.screen(value)), expected, value);
    const carved = rule.screen('10.0.0.0/29');
    assert.deepEqual(carved.kind === 'carved' && carved.pieces, ['10.0.0.0/30', '10.0.0.4', '10.0.0.6/31']);
    const slash64 = rule.screen('::/64');
    assert.ok(slash64.kind === 'carved' && !slash64.pieces.includes('::') && slash64.pieces[0] === '::2/127');
  });

  test('reasons name the address and why', () => {
    const screen = rule.screen('::/64');
    assert.equal(
      screen.kind === 'carved' && carvedNote(screen.holes),
      'carved around ::1 (host loopback), :: (unspecified), ::ffff:0:0/96 (unspecified)',
    );
    const loopback = rule.screen('127.0.0.1');
    assert.equal(
      loopback.kind === 'refused' && refusalText('127.0.0.1', loopback.holder),
      "127.0.0.1 covers this PBX's own loopback address (host loopback)",
    );
    const inside = rule.screen('0.1.2.3');
    assert.equal(
      inside.kind === 'refused' && refusalText('0.1.2.3', inside.holder),
      '0.1.2.3 is never banned: it lies in 0.0.0.0/8 (unspecified)',
    );
  });
});
