import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { banDecisionKey } from '../bans/index.ts';
import { decisionParts, identityOf } from '../model/index.ts';
import {
  capStatusText,
  ENTRY_CLASSES,
  entryOf,
  selectCapped,
  selectCappedMembers,
  totalOf,
  type EntryClass,
  type KeyEntry,
} from './key-caps.ts';
import type { Member } from '../snapshot/index.ts';

const NOW = 1_800_000_000_000;

const entry = (value: string, cls: EntryClass, expiresAt: number | null): KeyEntry => {
  const scenario = cls === 'intrusion' ? 'pbx/sip' : cls === 'upstream' ? 'crowdsecurity/ssh-bf' : 'pbx/manual';
  const key = { value, scenario };
  return { key, identity: identityOf(key), expiresAt, cls };
};

test('a cap keeps intrusion bans, then manual bans, then filter entries, then upstream; the longest-lasting first', () => {
  const entries = [
    entry('198.51.100.1', 'upstream', 9_000),
    entry('198.51.100.2', 'filter', null),
    entry('198.51.100.3', 'manual', 5_000),
    entry('198.51.100.4', 'intrusion', 1_000),
    entry('198.51.100.5', 'intrusion', 2_000),
    entry('198.51.100.6', 'manual', 7_000),
  ];
  const { kept, leftOut, leftOutOwn } = selectCapped(entries, 4);
  assert.deepEqual(
    kept.map((e) => e.key.value),
    ['198.51.100.5', '198.51.100.4', '198.51.100.6', '198.51.100.3'],
  );
  assert.deepEqual(leftOut, { intrusion: 0, manual: 0, filter: 1, upstream: 1 });
  assert.deepEqual(leftOutOwn, []);
  const tight = selectCapped(entries, 1);
  assert.deepEqual(
    tight.kept.map((e) => e.key.value),
    ['198.51.100.5'],
  );
  assert.deepEqual(
    tight.leftOutOwn.map((e) => e.key.value),
    ['198.51.100.4', '198.51.100.6', '198.51.100.3'],
  );
});

test('no cap keeps everything; a heavy entry that does not fit is left out and lighter ones after it still fit', () => {
  const entries = [entry('10.0.0.0/24', 'manual', 5_000), entry('10.1.0.1', 'filter', null)];
  assert.equal(selectCapped(entries, null).kept.length, 2);
  const weight = (e: KeyEntry) => (e.key.value.endsWith('/24') ? 256 : 1);
  const { kept, leftOut } = selectCapped(entries, 100, weight);
  assert.deepEqual(
    kept.map((e) => e.key.value),
    ['10.1.0.1'],
  );
  assert.equal(leftOut.manual, 1);
});

test('the status text says what was left out', () => {
  assert.equal(
    capStatusText(15_000, { intrusion: 0, manual: 0, filter: 0, upstream: 12_340 }),
    'capped at 15,000: 12,340 left out, all upstream',
  );
  assert.equal(
    capStatusText(10, { intrusion: 2, manual: 0, filter: 0, upstream: 1 }),
    'capped at 10: 3 left out (2 intrusion bans, 1 upstream)',
  );
  assert.equal(
    capStatusText(10, { intrusion: 0, manual: 0, filter: 0, upstream: 0 }),
    'capped at 10: nothing left out',
  );
});

const arbitraryEntry = fc
  .record({
    n: fc.integer({ min: 0, max: 60 }),
    cls: fc.constantFrom(...ENTRY_CLASSES),
    expiresAt: fc.option(fc.integer({ min: 1, max: 50 }), { nil: null }),
  })
  .map(({ n, cls, expiresAt }) => entry(`192.0.2.${n}`, cls, cls === 'filter' ? null : (expiresAt ?? 1)));

test('property: kept + left out = input; never over the cap; nothing left out outranks anything kept', () => {
  const rank = (cls: EntryClass) => ENTRY_CLASSES.indexOf(cls);
  fc.assert(
    fc.property(
      fc.uniqueArray(arbitraryEntry, { selector: (e) => e.identity, maxLength: 60 }),
      fc.option(fc.integer({ min: 1, max: 70 }), { nil: null }),
      (entries, cap) => {
        const { kept, leftOut, leftOutOwn } = selectCapped(entries, cap);
        assert.equal(kept.length + totalOf(leftOut), entries.length);
        assert.ok(cap === null || kept.length <= cap);
        assert.equal(kept.length, cap === null ? entries.length : Math.min(cap, entries.length));
        const keptIds = new Set(kept.map((e) => e.identity));
        const out = entries.filter((e) => !keptIds.has(e.identity));
        for (const o of out)
          for (const k of kept) {
            assert.ok(rank(k.cls) <= rank(o.cls), `${k.cls} kept before ${o.cls}`);
            if (k.cls === o.cls) assert.ok((k.expiresAt ?? Infinity) >= (o.expiresAt ?? Infinity));
          }
        assert.deepEqual(
          leftOutOwn.map((e) => e.identity).sort(),
          out
            .filter((e) => e.cls === 'intrusion' || e.cls === 'manual')
            .map((e) => e.identity)
            .sort(),
        );
      },
    ),
    { numRuns: 400 },
  );
});

test('property: the member selection (only the class at the cap sorted) keeps what the general one keeps', () => {
  const classes = ['sip', 'manual', 'filter', 'upstream'] as const;
  const member = fc
    .record({
      n: fc.integer({ min: 0, max: 80 }),
      kind: fc.constantFrom(...classes),
      ends: fc.integer({ min: 1, max: 9 }),
    })
    .map(({ n, kind, ends }): Member => {
      const value = `192.0.2.${n}`;
      const ban =
        kind === 'filter'
          ? undefined
          : {
              ...{ id: n, ip: value, reason: 't', bannedAt: 0, expiresAt: NOW + ends * 60_000 },
              category: kind === 'upstream' ? ('upstream' as const) : kind,
              ...(kind === 'upstream' ? { origin: 'CAPI', scenario: 'crowdsecurity/ssh-bf' } : {}),
            };
      const key = ban ? banDecisionKey(ban) : { value, scenario: 'pbx/manual' };
      return { key, identity: identityOf(key), parts: decisionParts(key), filterRefs: ban ? 0 : 1, ban };
    });
  fc.assert(
    fc.property(
      fc.uniqueArray(member, { selector: (m) => m.identity, maxLength: 60 }),
      fc.integer({ min: 1, max: 70 }),
      (members, cap) => {
        const fast = selectCappedMembers(members, cap, NOW);
        const general = selectCapped(
          members.map((m) => entryOf(m, NOW)),
          cap,
        );
        const ids = (entries: KeyEntry[]) => entries.map((e) => e.identity).sort();
        assert.deepEqual(ids(fast.kept), ids(general.kept));
        assert.deepEqual(fast.leftOut, general.leftOut);
        assert.deepEqual(ids(fast.leftOutOwn), ids(general.leftOutOwn));
      },
    ),
    { numRuns: 400 },
  );
});
