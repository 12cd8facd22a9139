import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DecisionKey } from '../firewall/decisions.ts';
import { decisionId } from '../firewall/decisions.ts';
import { openDatabase } from '../storage/database.ts';
import { migrate } from '../storage/migrations.ts';
import { DecisionLog } from './decision-log.ts';

const key = (value: string, scenario: DecisionKey['scenario'] = 'pbx/sip'): [number, DecisionKey] => [decisionId(value, scenario), { value, scenario }];
const set = (...values: string[]) => new Map(values.map((v) => key(v)));
const valuesOf = (json: string[]) => json.map((j) => JSON.parse(j).value).sort();

describe('decision log', () => {
  const db = openDatabase(':memory:');
  migrate(db);

  test('versions move only on membership changes; deletedSince is per cursor version', () => {
    const log = new DecisionLog(db);
    const v1 = log.publish(set('10.0.0.1', '10.0.0.2', '10.0.0.3'));
    assert.equal(log.publish(set('10.0.0.1', '10.0.0.2', '10.0.0.3')), v1, 'same set, same version');
    const v2 = log.publish(set('10.0.0.1', '10.0.0.3'));
    const v3 = log.publish(set('10.0.0.3', '10.0.0.4'));
    assert.deepEqual(valuesOf(log.deletedSince(v1)), ['10.0.0.1', '10.0.0.2']);
    assert.deepEqual(valuesOf(log.deletedSince(v2)), ['10.0.0.1']);
    assert.deepEqual(log.deletedSince(v3), []);

    // Re-added after removal: not deleted for anyone, it is in `new` again.
    log.publish(set('10.0.0.1', '10.0.0.3', '10.0.0.4'));
    assert.deepEqual(valuesOf(log.deletedSince(v1)), ['10.0.0.2']);
    // Added after the cursor and removed again: the cursor never saw it, so it is not listed.
    const v5 = log.publish(set('10.0.0.1', '10.0.0.3', '10.0.0.4', '10.0.0.9'));
    log.publish(set('10.0.0.1', '10.0.0.3', '10.0.0.4'));
    assert.deepEqual(valuesOf(log.deletedSince(v3)), []);
    assert.deepEqual(valuesOf(log.deletedSince(v5)), ['10.0.0.9']);
  });

  test('the log survives a reload from SQLite and prunes what no cursor needs', () => {
    const reloaded = new DecisionLog(db);
    assert.equal(reloaded.size, 3);
    const before = reloaded.removedCount;
    assert.ok(before >= 3);
    assert.deepEqual(valuesOf(reloaded.deletedSince(1)), ['10.0.0.2']);
    reloaded.prune(reloaded.version);
    assert.equal(reloaded.removedCount, 0);
    assert.equal(new DecisionLog(db).removedCount, 0, 'pruned in the database too');
  });
});
