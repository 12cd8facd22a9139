import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ManualClock } from '../clock.ts';
import { readSetting, writeSetting } from '../storage/settings.ts';
import { openTempDb } from '../test-support/temp-db.ts';
import { generalSettings } from './general-settings.ts';
import { CachedQueueLimits, GENERAL_SETTINGS_KEY } from './limits.ts';
import { ResultStore } from './result-store.ts';

describe('queue limits', () => {
  const { db, dispose } = openTempDb('pbx-limits-');
  after(dispose);

  it('defaults to 50 queued requests and a 35 s TTL', () => {
    assert.deepEqual(new CachedQueueLimits(db, new ManualClock()).current(), { maxLength: 50, ttlMs: 35_000 });
  });

  it('re-reads the settings at most every 10 s', () => {
    const clock = new ManualClock();
    const limits = new CachedQueueLimits(db, clock);
    assert.equal(limits.current().maxLength, 50);
    writeSetting(db, GENERAL_SETTINGS_KEY, { APIQueueMaxLength: 7, APIRequestTTL: 2 });
    clock.advance(9_999);
    assert.equal(limits.current().maxLength, 50, 'still cached');
    clock.advance(1);
    assert.deepEqual(limits.current(), { maxLength: 7, ttlMs: 2000 });
  });
});

describe('ResultStore', () => {
  it('keeps results for 120 s', () => {
    const clock = new ManualClock();
    const store = new ResultStore<string>(clock);
    store.put('a', 'done');
    clock.advance(119_999);
    assert.equal(store.get('a'), 'done');
    clock.advance(1);
    assert.equal(store.get('a'), undefined);
    assert.equal(store.size, 0);
  });
});

describe('general settings', () => {
  const { db, dispose } = openTempDb('pbx-general-');
  after(dispose);

  it('reads each field that is not a number as its default, keeping the others', () => {
    writeSetting(db, GENERAL_SETTINGS_KEY, { APIQueueMaxLength: 'many', APIRequestTTL: 12, auditRetentionDays: 30 });
    assert.deepEqual(readSetting(db, generalSettings), {
      APIQueueMaxLength: 50,
      APIRequestTTL: 12,
      banHistoryRetentionDays: 90,
      auditRetentionDays: 30,
    });
  });
});
