import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseBanList, parseImportDuration } from './ban-import.ts';

const DEFAULTS = { seconds: 3600, reason: 'imported' };
const bans = (text: string, format: Parameters<typeof parseBanList>[1]) => parseBanList(text, format, DEFAULTS);

describe('ban list parsing', () => {
  test('cscli durations: Go forms, days and weeks, bare seconds, permanent; rounded up to whole seconds', () => {
    const cases: Array<[unknown, number | null]> = [
      ['4h', 14_400],
      ['1h30m', 5400],
      ['3599.2s', 3600],
      ['168h0m0s', 604_800],
      ['7d', 604_800],
      ['2w', 1_209_600],
      ['90', 90],
      [90, 90],
      ['permanent', null],
      ['1500ms', 2],
    ];
    for (const [raw, seconds] of cases) assert.deepEqual(parseImportDuration(raw), { ok: true, seconds }, String(raw));
    for (const raw of ['soon', '-5s', '0s', '11y', '4 h', '']) assert.equal(parseImportDuration(raw).ok, false, raw);
  });

  test('values: one per line, canonical, default duration and reason; blank and # lines skipped', () => {
    const out = bans('# scanners\n203.0.113.9\r\n\n2001:DB8::1\n198.51.100.0/24\n', 'values');
    assert.deepEqual(out.errors, []);
    assert.deepEqual(
      out.bans.map((b) => [b.line, b.value, b.seconds, b.reason]),
      [
        [2, '203.0.113.9', 3600, 'imported'],
        [4, '2001:db8::1', 3600, 'imported'],
        [5, '198.51.100.0/24', 3600, 'imported'],
      ],
    );
  });

  test('bad lines get their number and reason: NUL byte, long address, host bits, reversed range, garbage', () => {
    const text = [
      '203.0.113.1',
      '203.0.113.2\0',
      `${'a'.repeat(46)}`,
      '10.0.0.5/24',
      '192.0.2.20-192.0.2.10',
      'not-an-ip',
      '2001:db8::1%eth0',
      '1.2.3',
    ].join('\n');
    const out = bans(text, 'opnsense');
    const reasons = Object.fromEntries(out.errors.map((e) => [e.line, e.reason]));
    assert.deepEqual(Object.keys(reasons).map(Number), [2, 3, 4, 5, 6, 7, 8]);
    assert.match(reasons[2]!, /NUL byte/);
    assert.match(reasons[3]!, /longer than 45/);
    assert.match(reasons[4]!, /host bits set: the network is 10\.0\.0\.0\/24/);
    assert.match(reasons[5]!, /ends reversed/);
    assert.match(reasons[6]!, /not a range|not an IPv4/);
    assert.equal(out.bans.length, 1);
  });

  test('opnsense: address, CIDR or a-b range then a description; a range is the smallest CIDR set', () => {
    const out = bans('192.0.2.1-192.0.2.6 office scanners\n198.51.100.0/24,from feed\n2001:db8::5\n', 'opnsense');
    assert.deepEqual(out.errors, []);
    assert.deepEqual(
      out.bans.map((b) => [b.line, b.value, b.reason]),
      [
        [1, '192.0.2.1', 'office scanners'],
        [1, '192.0.2.2/31', 'office scanners'],
        [1, '192.0.2.4/31', 'office scanners'],
        [1, '192.0.2.6', 'office scanners'],
        [2, '198.51.100.0/24', 'from feed'],
        [3, '2001:db8::5', 'imported'],
      ],
    );
  });

  test('csv with a header in any column order, quoted fields with commas, quotes and line breaks', () => {
    const text =
      'duration,value,reason,scope,type\n24h,203.0.113.9,"ssh, then ' +
      'sip",Ip,ban\n,198.51.100.0/24,"said ""hi""\nin two ' +
      'lines",range,\n1h,203.0.113.10,x,country,ban\n';
    const out = bans(text, 'csv');
    assert.deepEqual(
      out.bans.map((b) => [b.line, b.value, b.seconds, b.reason]),
      [
        [2, '203.0.113.9', 86_400, 'ssh, then sip'],
        [3, '198.51.100.0/24', 3600, 'said "hi"\nin two lines'],
      ],
    );
    assert.deepEqual(
      out.errors.map((e) => e.line),
      [5],
    );
    assert.match(out.errors[0]!.reason, /scope "country" cannot be imported/);
    assert.match(bans('ip,duration\n1.2.3.4,1h\n', 'csv').errors[0]!.reason, /header.*value/);
  });

  test('json: cscli decisions, numbered by entry', () => {
    const out = bans(
      JSON.stringify([
        { value: '203.0.113.9', duration: '4h', reason: 'sip scan' },
        { value: '203.0.113.10', type: 'captcha' },
        { value: '2001:db8::/32', scope: 'Range', services: ['SIP'] },
        7,
      ]),
      'json',
    );
    assert.deepEqual(
      out.bans.map((b) => [b.line, b.value, b.seconds, b.reason, b.services]),
      [
        [1, '203.0.113.9', 14_400, 'sip scan', null],
        [3, '2001:db8::/32', 3600, 'imported', ['SIP']],
      ],
    );
    assert.deepEqual(
      out.errors.map((e) => [e.line, /only ban|not an object/.test(e.reason)]),
      [
        [2, true],
        [4, true],
      ],
    );
    assert.match(bans('{"value": "1.2.3.4"}', 'json').errors[0]!.reason, /array/);
    assert.match(bans('[{"value": "1.2.3.4"', 'json').errors[0]!.reason, /not valid JSON/);
  });
});
