import assert from 'node:assert/strict';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { ManualClock } from '../clock.ts';
import { openTempDb } from '../test-support/temp-db.ts';
import type { AuditRejection } from '../wire/types.ts';
import { AuditRecorder, MAX_OPEN_ROWS } from './recorder.ts';
import { findAuditEntry, queryAuditLog, REJECTION_WINDOW_MS, type AuditEntry } from './store.ts';

const disabled = (address: string, keyId = 7): AuditRejection => ({
  kind: 'rejected-key',
  status: 401,
  reason: 'disabled API key',
  address,
  method: 'GET',
  path: '/pbxcore/api/v3/firewall-bouncer/v1/decisions/stream',
  keyId,
});

describe('AuditRecorder: repeated rejections share one row (real SQLite file)', () => {
  const { db, dispose } = openTempDb('pbx-audit-');
  let clock: ManualClock;
  let recorder: AuditRecorder;

  const all = (): AuditEntry[] => queryAuditLog(db, { limit: 100_000, offset: 0 }).entries;
  /** The same rejection at the start and the last millisecond of one window, written; answers the start. */
  const rejectAtBothEndsOfWindow = (): number => {
    const start = clock.now();
    recorder.reject(disabled('192.0.2.1'));
    clock.advance(REJECTION_WINDOW_MS - 1);
    recorder.reject(disabled('192.0.2.1'));
    recorder.flush();
    return start;
  };
  const rowCount = () => (db.prepare('SELECT COUNT(*) AS n FROM audit_log').get() as { n: number }).n;

  after(dispose);
  beforeEach(() => {
    db.exec('DELETE FROM audit_log');
    clock = new ManualClock();
    recorder = new AuditRecorder({
      db,
      now: () => clock.now(),
      retentionDays: () => 90,
      onError: (error) => assert.fail(String(error)),
    });
  });
  afterEach(() => recorder.stop());

  it('the first rejection is written at the first flush with count 1; later ones add to it', () => {
    recorder.reject(disabled('192.0.2.1'));
    recorder.flush();
    const [first] = all();
    assert.equal(first!.count, 1);
    assert.equal(first!.lastAt, first!.at);
    clock.advance(5_000);
    recorder.reject(disabled('192.0.2.1'));
    clock.advance(5_000);
    recorder.reject(disabled('192.0.2.1'));
    recorder.flush();
    const [same] = all();
    assert.equal(rowCount(), 1);
    assert.equal(same!.id, first!.id);
    assert.equal(same!.count, 3);
    assert.equal(same!.at, first!.at);
    assert.equal(Date.parse(same!.lastAt) - Date.parse(same!.at), 10_000);
  });

  it('window boundary: the last millisecond joins the row, the window length starts a new one', () => {
    const start = rejectAtBothEndsOfWindow();
    assert.deepEqual(
      all().map((e) => e.count),
      [2],
    );
    clock.advance(1);
    recorder.reject(disabled('192.0.2.1'));
    recorder.flush();
    const [second, first] = all();
    assert.equal(first!.count, 2);
    assert.equal(Date.parse(first!.at), start);
    assert.equal(Date.parse(first!.lastAt), start + REJECTION_WINDOW_MS - 1);
    assert.equal(second!.count, 1);
    assert.equal(Date.parse(second!.at), start + REJECTION_WINDOW_MS);
  });

  it('a window boundary inside one batch splits it between the two rows', () => {
    for (let i = 0; i < 10; i++) {
      recorder.reject(disabled('192.0.2.1'));
      clock.advance(REJECTION_WINDOW_MS / 4);
    }
    recorder.flush();
    assert.deepEqual(
      all().map((e) => e.count),
      [2, 4, 4],
    );
  });

  it('different source, key, kind, login, reason or path: different rows', () => {
    recorder.reject(disabled('192.0.2.1'));
    recorder.reject(disabled('192.0.2.2'));
    recorder.reject(disabled('192.0.2.1', 8));
    recorder.reject({ ...disabled('192.0.2.1'), reason: 'expired API key' });
    recorder.reject({ ...disabled('192.0.2.1'), path: '/pbxcore/api/v3/firewall-bouncer/v1/decisions' });
    const login = {
      kind: 'failed-login',
      status: 401,
      reason: 'failed login',
      address: '192.0.2.1',
      method: 'POST',
      path: '/pbxcore/api/v3/auth:login',
    } as const;
    recorder.reject({ ...login, login: 'admin' });
    recorder.reject({ ...login, login: 'root' });
    recorder.reject({ ...login, login: 'admin', status: 429, reason: 'login while rate-limited' });
    for (let i = 0; i < 3; i++) recorder.reject({ ...login, login: 'admin' });
    recorder.flush();
    assert.equal(rowCount(), 8);
    assert.equal(all().find((e) => e.actor === 'admin' && e.status === 401)!.count, 4);
  });

  it('a row pruned while open: the next attempts start a new row', () => {
    recorder.reject(disabled('192.0.2.1'));
    recorder.flush();
    db.exec('DELETE FROM audit_log');
    recorder.reject(disabled('192.0.2.1'));
    recorder.flush();
    assert.deepEqual(
      all().map((e) => e.count),
      [1],
    );
  });

  it('retention keeps a row whose last attempt is recent; the list and since/until see any attempt in range', () => {
    const start = rejectAtBothEndsOfWindow();
    const { id } = all()[0]!;
    assert.equal(
      queryAuditLog(db, { since: start + REJECTION_WINDOW_MS - 1, limit: 10, offset: 0 }).total,
      1,
      'the last attempt is in range',
    );
    assert.equal(queryAuditLog(db, { since: start + REJECTION_WINDOW_MS, limit: 10, offset: 0 }).total, 0);
    assert.equal(queryAuditLog(db, { until: start, limit: 10, offset: 0 }).total, 1, 'the first attempt is in range');
    assert.equal(queryAuditLog(db, { until: start - 1, limit: 10, offset: 0 }).total, 0);
    // With retention 1 day, pruning at first + 1 day keeps the row (its last attempt is younger).
    clock.advance(86_400_000 - REJECTION_WINDOW_MS + 2);
    const pruner = new AuditRecorder({
      db,
      now: () => clock.now(),
      retentionDays: () => 1,
      onError: (error) => assert.fail(String(error)),
    });
    pruner.stop();
    assert.ok(findAuditEntry(db, id));
    clock.advance(REJECTION_WINDOW_MS);
    assert.equal(pruner.prune(), 1);
  });

  it('memory stays bounded: many distinct sources never hold more than MAX_OPEN_ROWS, and closed windows are forgotten', () => {
    const sources = MAX_OPEN_ROWS + 500;
    for (let i = 0; i < sources; i++) recorder.reject(disabled(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
    assert.ok(recorder.openRows <= MAX_OPEN_ROWS, String(recorder.openRows));
    recorder.flush();
    assert.equal(rowCount(), sources, 'every source got its row, evicted or not');
    // The most recent sources still coalesce.
    recorder.reject(disabled(`10.0.${((sources - 1) >> 8) & 255}.${(sources - 1) & 255}`));
    recorder.flush();
    assert.equal(rowCount(), sources);
    clock.advance(REJECTION_WINDOW_MS);
    recorder.flush();
    assert.equal(recorder.openRows, 0);
  });

  it('property: every attempt is counted once; rows of one identity never overlap and span less than the window', () => {
    const sources = ['192.0.2.1', '192.0.2.2', '2001:db8::1'];
    const step = fc.record({
      source: fc.nat(sources.length - 1),
      login: fc.boolean(),
      gap: fc.oneof(fc.constant(0), fc.nat(REJECTION_WINDOW_MS), fc.constant(REJECTION_WINDOW_MS)),
      flush: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        db.exec('DELETE FROM audit_log');
        const recorder = new AuditRecorder({
          db,
          now: () => clock.now(),
          retentionDays: () => 90,
          onError: (error) => assert.fail(String(error)),
        });
        const attempts = new Map<string, number[]>();
        for (const { source, login, gap, flush } of steps) {
          clock.advance(gap);
          const address = sources[source]!;
          recorder.reject(
            login
              ? {
                  kind: 'failed-login',
                  status: 401,
                  reason: 'failed login',
                  address,
                  method: 'POST',
                  path: '/auth',
                  login: 'admin',
                }
              : disabled(address),
          );
          const identity = `${login}|${address}`;
          attempts.set(identity, [...(attempts.get(identity) ?? []), clock.now()]);
          if (flush) recorder.flush();
        }
        recorder.stop();
        const rows = all();
        assert.equal(
          rows.reduce((sum, e) => sum + e.count, 0),
          steps.length,
        );
        for (const [identity, times] of attempts) {
          const [login, address] = identity.split('|');
          const own = rows
            .filter((e) => e.address === address && (e.kind === 'failed-login') === (login === 'true'))
            .reverse();
          // The reference: a new row at each attempt a window or more after its row's first.
          const expected: number[][] = [];
          for (const at of times) {
            const current = expected.at(-1);
            if (current && at - current[0]! < REJECTION_WINDOW_MS) current.push(at);
            else expected.push([at]);
          }
          assert.deepEqual(
            own.map((e) => [Date.parse(e.at), Date.parse(e.lastAt), e.count]),
            expected.map((group) => [group[0], group.at(-1), group.length]),
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});
