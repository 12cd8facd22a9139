import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cidrsOverlap } from '../firewall/model/index.ts';
import type { Cidr } from './cidr.ts';
import { cidrInterval, RangeIndex } from './range-index.ts';

const v4 = fc
  .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
  .map(([n, prefix]): Cidr => [ipaddr.fromByteArray([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]), prefix]);
// A narrow IPv6 space (2001:db8::/120 and around) so that random ranges do overlap.
const v6 = fc
  .tuple(fc.integer({ min: 0, max: 65535 }), fc.integer({ min: 100, max: 128 }))
  .map(([n, prefix]): Cidr => [ipaddr.parse(`2001:db8::${n.toString(16)}`), prefix]);
const range = fc.oneof(v4, v6);

test('the index finds an overlap exactly when a pairwise check does', () => {
  fc.assert(
    fc.property(
      fc.array(range, { maxLength: 40 }),
      fc.array(range, { minLength: 1, maxLength: 20 }),
      (indexed, queries) => {
        const index = new RangeIndex<number>();
        indexed.forEach((cidr, i) => index.add(cidr, i));
        for (const query of queries) {
          const hit = index.overlapping(query);
          const expected = indexed.some((cidr) => cidrsOverlap(cidr, query));
          assert.equal(hit !== undefined, expected);
          if (hit !== undefined) assert.ok(cidrsOverlap(indexed[hit]!, query), 'the range named does overlap');
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('intervals ignore host bits and keep the families apart', () => {
  assert.deepEqual(cidrInterval(ipaddr.parseCIDR('203.0.113.77/24')), {
    family: 'ipv4',
    first: 0xcb007100n,
    last: 0xcb0071ffn,
  });
  const index = new RangeIndex<string>();
  index.add(ipaddr.parseCIDR('0.0.0.0/1'), 'low half');
  assert.equal(index.overlapping(ipaddr.parseCIDR('::/1')), undefined, 'an IPv6 range never overlaps an IPv4 one');
  assert.equal(index.overlapping(ipaddr.parseCIDR('127.0.0.1/32')), 'low half');
  assert.equal(index.overlapping(ipaddr.parseCIDR('128.0.0.0/1')), undefined);
});

test('10,000 ranges checked against 10,000 others: each query inside hits, each outside misses (timed in bench/queries.ts)', () => {
  const index = new RangeIndex<number>();
  for (let i = 0; i < 10_000; i++) index.add([ipaddr.fromByteArray([10, (i >> 8) & 255, i & 255, 0]), 24], i);
  let hits = 0;
  for (let i = 0; i < 10_000; i++)
    if (index.overlapping([ipaddr.fromByteArray([11 + (i % 2) * -1, (i >> 8) & 255, i & 255, 9]), 32]) !== undefined)
      hits++;
  assert.equal(hits, 5000, 'every query inside 10.0.0.0/8 hits, every one in 11.0.0.0/8 misses');
});
