import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decisionId, type DecisionKey, identityOf } from '../model/index.ts';
import { openDatabase } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { DecisionLog, REMOVAL_RETENTION_MS } from './decision-log.ts';

const DAY = 24 * 60 * 60 * 1000;
const entry = (value: string, scenario: DecisionKey['scenario'] = 'pbx/sip'): [string, DecisionKey] => [
  identityOf({ value, scenario }),
  { value, scenario },
];
const set = (...values: string[]) => new Map(values.map((v) => entry(v)));
const valuesOf = (removals: { keys: DecisionKey[] }) => removals.keys.map((k) => k.value).sort();

describe('decision log', () => {
  const db = openDatabase(':memory:');
  migrate(db);

  test('versions move only on membership changes; removedSince is per cursor version', () => {
    const log = new DecisionLog(db);
    const v1 = log.publish(set('10.0.0.1', '10.0.0.2', '10.0.0.3'), 0);
    assert.equal(log.publish(set('10.0.0.1', '10.0.0.2', '10.0.0.3'), 0), v1, 'same set, same version');
    const v2 = log.publish(set('10.0.0.1', '10.0.0.3'), 0);
    const v3 = log.publish(set('10.0.0.3', '10.0.0.4'), 0);
    assert.deepEqual(valuesOf(log.removedSince(v1)), ['10.0.0.1', '10.0.0.2']);
    assert.deepEqual(valuesOf(log.removedSince(v2)), ['10.0.0.1']);
    assert.deepEqual(log.removedSince(v3).keys, []);
    // Up to an older version: what was gone then, not what went since.
    assert.deepEqual(valuesOf(log.removedSince(v1, v2)), ['10.0.0.2']);

    // Re-added after removal: not deleted for anyone, it is in `new` again.
    log.publish(set('10.0.0.1', '10.0.0.3', '10.0.0.4'), 0);
    assert.deepEqual(valuesOf(log.removedSince(v1)), ['10.0.0.2']);
    // Added after `since` and removed again: a later answer of the key's window may have carried
    // it (and a crash may have lost the record of that answer), so it is listed: a superset is safe.
    const v5 = log.publish(set('10.0.0.1', '10.0.0.3', '10.0.0.4', '10.0.0.9'), 0);
    const v6 = log.publish(set('10.0.0.1', '10.0.0.3', '10.0.0.4'), 0);
    assert.deepEqual(valuesOf(log.removedSince(v3)), ['10.0.0.9']);
    assert.deepEqual(valuesOf(log.removedSince(v5)), ['10.0.0.9']);
    assert.deepEqual(valuesOf(log.removedSince(v6)), [], 'removed before the window began: not listed');
  });

  test('two decisions whose ids collide are both published and both removed', () => {
    const db2 = openDatabase(':memory:');
    migrate(db2);
    // A known crc32 collision with pbx/manual (SPEC id = crc32(value + scenario) & 0x7fffffff).
    assert.equal(decisionId('26.95.120.191', 'pbx/manual'), decisionId('63.148.128.212', 'pbx/manual'));
    const log = new DecisionLog(db2);
    const both = new Map([entry('26.95.120.191', 'pbx/manual'), entry('63.148.128.212', 'pbx/manual')]);
    const v1 = log.publish(both, 0);
    assert.equal(log.size, 2);
    assert.equal(new DecisionLog(db2).size, 2, 'both stored');
    log.publish(new Map(), 0);
    assert.deepEqual(valuesOf(log.removedSince(v1)), ['26.95.120.191', '63.148.128.212']);
  });

  test('removals are kept 7 days whatever the cursors, then as long as a live cursor needs them', () => {
    const db3 = openDatabase(':memory:');
    migrate(db3);
    const log = new DecisionLog(db3);
    const t0 = 1_000 * DAY;
    const v1 = log.publish(set('10.0.0.1', '10.0.0.2'), t0);
    const v2 = log.publish(set('10.0.0.2'), t0 + DAY);
    // A cursor silent for days (long past the 1 h lifetime, so not live): still diffed exactly.
    log.prune(t0 + 6 * DAY, undefined);
    assert.deepEqual(log.removedSince(v1), { keys: [{ value: '10.0.0.1', scenario: 'pbx/sip' }], complete: true });
    assert.equal(new DecisionLog(db3).removedSince(v1).keys.length, 1, 'and after a restart');
    // A live cursor at v1 holds the removal past the retention.
    log.prune(t0 + DAY + REMOVAL_RETENTION_MS + 1, v1);
    assert.equal(log.removedCount, 1);
    // Nobody needs it and it is older than the retention: dropped, and older cursors are told so.
    log.prune(t0 + DAY + REMOVAL_RETENTION_MS + 1, v2);
    assert.equal(log.removedCount, 0);
    assert.equal(log.horizon, v2);
    assert.equal(new DecisionLog(db3).removedCount, 0, 'pruned in the database too');
    assert.equal(log.removedSince(v1).complete, false);
  });

  test('a cursor older than the kept history gets every kept removal not published now', () => {
    const db4 = openDatabase(':memory:');
    migrate(db4);
    const log = new DecisionLog(db4);
    const v1 = log.publish(set('10.0.0.1', '10.0.0.2', '10.0.0.3'), 0);
    log.publish(set('10.0.0.2', '10.0.0.3'), 0);
    log.prune(REMOVAL_RETENTION_MS + 1, undefined);
    log.publish(set('10.0.0.3', '10.0.0.5'), REMOVAL_RETENTION_MS + 2);
    const removals = log.removedSince(v1);
    assert.equal(removals.complete, false);
    assert.deepEqual(valuesOf(removals), ['10.0.0.2']);
  });
});
