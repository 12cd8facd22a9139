import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../storage/database.ts';
import { migrate } from '../../storage/migrations.ts';
import { addManualBan, banLog, liftBans, pruneBanHistory } from './ban-queries.ts';

const DAY = 86_400_000;

test('the ban history keeps a ban for the retention after it ended, and never prunes one in force', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  const t0 = 1_000 * DAY;
  addManualBan(db, { value: '198.51.100.1', seconds: 3600, reason: 'expires', services: null, by: 'alice' }, t0);
  addManualBan(db, { value: '198.51.100.2', seconds: 3600, reason: 'lifted', services: null, by: 'alice' }, t0);
  addManualBan(db, { value: '198.51.100.3', seconds: null, reason: 'permanent', services: null, by: 'alice' }, t0);
  liftBans(db, '198.51.100.2', t0 + 60_000, 'bob');
  const rows = () =>
    banLog(db, t0 + 100 * DAY, { limit: 10, offset: 0 })
      .rows.map((r) => `${r.ip} ${r.state}`)
      .sort();
  assert.equal(pruneBanHistory(db, t0 + 30 * DAY, 90), 0, 'nothing is older than 90 days yet');
  assert.equal(pruneBanHistory(db, t0 + 91 * DAY, 90), 2, 'the expired and the lifted ban, 90 days after they ended');
  assert.deepEqual(rows(), ['198.51.100.3 active'], 'the permanent ban is in force and stays');
});

test('lifting or re-banning an address leaves its expired bans as they ended: expired, lifted by nobody', () => {
  const db = openDatabase(':memory:');
  migrate(db);
  const t0 = 1_000 * DAY;
  addManualBan(db, { value: '198.51.100.9', seconds: 60, reason: 'first', services: null, by: 'alice' }, t0);
  // An hour later (the first ban ended long ago): a new ban, then an early lift.
  addManualBan(
    db,
    { value: '198.51.100.9', seconds: 3600, reason: 'second', services: null, by: 'alice' },
    t0 + 3_600_000,
  );
  assert.equal(liftBans(db, '198.51.100.9', t0 + 3_660_000, 'bob'), 1, 'only the ban in force is lifted');
  const rows = banLog(db, t0 + 3_700_000, { limit: 10, offset: 0 }).rows.map(
    (r) => `${r.reason} ${r.state} ${r.liftedBy ?? '-'}`,
  );
  assert.deepEqual(rows.sort(), ['first expired -', 'second lifted bob']);
  assert.equal(liftBans(db, '198.51.100.9', t0 + 3_700_000, 'carol'), 0, 'nothing in force: nothing lifted');
});
