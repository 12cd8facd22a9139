import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseCidr } from './cidr.ts';
import { addressToBigInt, hasHostBits, rangeToCidrs, subtractCidrs } from './cidr-ranges.ts';

const v4 = (text: string) => addressToBigInt(parseCidr(text)![0]);

describe('CIDR ranges', () => {
  test('a range becomes the smallest CIDR set', () => {
    assert.deepEqual(rangeToCidrs(v4('192.0.2.0'), v4('192.0.2.255'), 'ipv4'), ['192.0.2.0/24']);
    assert.deepEqual(rangeToCidrs(v4('192.0.2.5'), v4('192.0.2.5'), 'ipv4'), ['192.0.2.5']);
    assert.deepEqual(rangeToCidrs(v4('192.0.2.1'), v4('192.0.2.6'), 'ipv4'), [
      '192.0.2.1',
      '192.0.2.2/31',
      '192.0.2.4/31',
      '192.0.2.6',
    ]);
    assert.deepEqual(rangeToCidrs(v4('10.0.0.0'), v4('10.1.255.255'), 'ipv4'), ['10.0.0.0/15']);
    assert.deepEqual(rangeToCidrs(0n, (1n << 32n) - 1n, 'ipv4'), ['0.0.0.0/0']);
    const six = (t: string) => addressToBigInt(parseCidr(t)![0]);
    assert.deepEqual(rangeToCidrs(six('2001:db8::'), six('2001:db8::ffff'), 'ipv6'), ['2001:db8::/112']);
  });

  test('the CIDR set covers exactly the range, with aligned blocks (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 70_000 }), (start, span) => {
        const first = BigInt(start);
        const last = first + BigInt(span) > (1n << 32n) - 1n ? (1n << 32n) - 1n : first + BigInt(span);
        let next = first;
        for (const text of rangeToCidrs(first, last, 'ipv4')) {
          const cidr = parseCidr(text)!;
          assert.equal(hasHostBits(cidr), false);
          assert.equal(addressToBigInt(cidr[0]), next, 'contiguous');
          next += 1n << BigInt(32 - cidr[1]);
        }
        assert.equal(next, last + 1n);
      }),
      { numRuns: 200 },
    );
  });

  test('host bits are detected', () => {
    assert.equal(hasHostBits(parseCidr('10.0.0.5/24')!), true);
    assert.equal(hasHostBits(parseCidr('10.0.0.0/24')!), false);
    assert.equal(hasHostBits(parseCidr('2001:db8::1/64')!), true);
  });

  test('subtracting holes leaves the rest of the range', () => {
    assert.deepEqual(subtractCidrs(parseCidr('192.0.2.0/30')!, [parseCidr('192.0.2.1')!]), [
      '192.0.2.0',
      '192.0.2.2/31',
    ]);
    assert.deepEqual(subtractCidrs(parseCidr('192.0.2.0/24')!, [parseCidr('192.0.2.0/25')!]), ['192.0.2.128/25']);
    assert.deepEqual(subtractCidrs(parseCidr('192.0.2.7')!, [parseCidr('192.0.2.0/24')!]), []);
    assert.deepEqual(
      subtractCidrs(parseCidr('192.0.2.0/24')!, [parseCidr('2001:db8::/32')!]),
      ['192.0.2.0/24'],
      'other family ignored',
    );
  });
});
