import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseCidr } from '../../net/cidr.ts';
import { bigIntToAddress, cidrBounds } from '../../net/cidr-ranges.ts';
import { identityOf } from '../model/index.ts';
import { AGGREGATE_SCENARIO, aggregateEntries } from './cidr-aggregation.ts';
import type { EntryClass, KeyEntry } from './key-caps.ts';

const entry = (value: string, cls: EntryClass = 'manual', expiresAt: number | null = 1000): KeyEntry => {
  const key = { value, scenario: 'pbx/manual' };
  return { key, identity: identityOf(key), expiresAt, cls };
};

/** The covered addresses of some values as sorted, merged [family, first, last] runs: one form for equal sets. */
function coverage(values: readonly string[]): string[] {
  const spans = values
    .map((v) => cidrBounds(parseCidr(v)!))
    .sort((a, b) => (a.family !== b.family ? (a.family < b.family ? -1 : 1) : a.first < b.first ? -1 : 1));
  const runs: Array<{ family: string; first: bigint; last: bigint }> = [];
  for (const s of spans) {
    const open = runs[runs.length - 1];
    if (open && open.family === s.family && s.first <= open.last + 1n)
      open.last = s.last > open.last ? s.last : open.last;
    else runs.push({ ...s });
  }
  return runs.map((r) => `${r.family} ${r.first}-${r.last}`);
}

/** Random values in a small space (so they overlap and touch): addresses and ranges of IPv4 and IPv6. */
const value = fc.oneof(
  fc.record({ n: fc.integer({ min: 0, max: 255 }), prefix: fc.integer({ min: 26, max: 32 }) }).map(({ n, prefix }) => {
    const base = BigInt(0xc6336400 + n) & ~((1n << BigInt(32 - prefix)) - 1n); // 198.51.100.x
    const text = bigIntToAddress(base, 'ipv4').toString();
    return prefix === 32 ? text : `${text}/${prefix}`;
  }),
  fc
    .record({ n: fc.integer({ min: 0, max: 255 }), prefix: fc.integer({ min: 122, max: 128 }) })
    .map(({ n, prefix }) => {
      const base = (0x20010db8n << 96n) + (BigInt(n) & ~((1n << BigInt(128 - prefix)) - 1n));
      const text = bigIntToAddress(base, 'ipv6').toString();
      return prefix === 128 ? text : `${text}/${prefix}`;
    }),
);

test('property: the aggregated CIDRs cover exactly the input addresses, disjoint, never more of them', () => {
  fc.assert(
    fc.property(fc.uniqueArray(value, { maxLength: 80 }), (values) => {
      const out = aggregateEntries(values.map((v) => entry(v)));
      const outValues = out.map((e) => e.key.value);
      assert.deepEqual(coverage(outValues), coverage(values));
      // Disjoint: the runs of the output add up to the sum of its CIDR sizes.
      const size = (vs: string[]) =>
        vs.map((v) => cidrBounds(parseCidr(v)!)).reduce((sum, b) => sum + (b.last - b.first + 1n), 0n);
      const runSize = coverage(outValues)
        .map((r) => r.split(' ')[1]!.split('-').map(BigInt))
        .reduce((sum, [a, b]) => sum + (b! - a! + 1n), 0n);
      assert.equal(size(outValues), runSize);
      assert.ok(out.length <= values.length);
    }),
    { numRuns: 500 },
  );
});

test('property: with protected ranges, the output is the input less them', () => {
  fc.assert(
    fc.property(fc.uniqueArray(value, { maxLength: 60 }), fc.uniqueArray(value, { maxLength: 4 }), (values, holes) => {
      const out = aggregateEntries(
        values.map((v) => entry(v)),
        holes.map((h) => parseCidr(h)!),
      ).map((e) => e.key.value);
      const covered = (vs: string[], address: bigint, family: string) =>
        vs.some((v) => {
          const b = cidrBounds(parseCidr(v)!);
          return b.family === family && b.first <= address && address <= b.last;
        });
      // Every address of the small spaces: in the output exactly when in the input and in no hole.
      for (const [family, base] of [
        ['ipv4', 0xc6336400n],
        ['ipv6', 0x20010db8n << 96n],
      ] as const)
        for (let i = 0n; i < 256n; i++) {
          const a = base + i;
          assert.equal(covered(out, a, family), covered(values, a, family) && !covered(holes, a, family));
        }
    }),
    { numRuns: 150 },
  );
});

test('adjacent entries merge; a lone entry stays as it is; a merge never spans a whitelisted address', () => {
  const out = aggregateEntries([
    entry('198.51.100.0', 'intrusion', 500),
    entry('198.51.100.1', 'upstream', 900),
    entry('198.51.100.2/31', 'filter', null),
    entry('203.0.113.9', 'upstream', 700),
  ]);
  assert.deepEqual(
    out.map((e) => [e.key.value, e.key.scenario, e.cls, e.expiresAt]),
    [
      ['198.51.100.0/30', AGGREGATE_SCENARIO, 'intrusion', null],
      ['203.0.113.9', 'pbx/manual', 'upstream', 700],
    ],
  );
  const carved = aggregateEntries(
    ['198.51.100.0', '198.51.100.1', '198.51.100.2', '198.51.100.3'].map((v) => entry(v)),
    [parseCidr('198.51.100.2')!],
  );
  assert.deepEqual(
    carved.map((e) => e.key.value),
    ['198.51.100.0/31', '198.51.100.3'],
  );
});
