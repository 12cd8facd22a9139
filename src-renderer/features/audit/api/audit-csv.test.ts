import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditCsv } from './audit-csv.ts';
import type { AuditEntry } from './get-audit-log.ts';

const entry = (reason: string): AuditEntry => ({
  id: 1,
  at: '2026-11-28T00:00:00.000Z',
  kind: 'failed-login',
  channel: null,
  actor: 'admin',
  keyId: null,
  keyDescription: null,
  address: '198.51.100.7',
  resource: null,
  recordId: null,
  operation: null,
  verb: null,
  path: null,
  status: 401,
  reason,
  diff: [],
  count: 1,
  lastAt: '2026-11-28T00:00:00.000Z',
});

describe('auditCsv', () => {
  it('never starts a cell with a character a spreadsheet evaluates (the ban export rule)', () => {
    for (const actor of ['=1+1', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd', '=HYPERLINK("http://x")']) {
      const csv = auditCsv([entry('bad password')], () => actor);
      const row = csv.split('\r\n')[1]!;
      // The Who column is the third; quoted cells start with '"', the guard follows it.
      assert.ok(
        !/,"?[=+\-@\t\r]/.test(row.replace(/^[^,]*,/, ',')),
        `${JSON.stringify(actor)} in ${JSON.stringify(row)}`,
      );
      assert.ok(
        row.includes(`'${actor.replaceAll('"', '""')}`),
        `${JSON.stringify(actor)} keeps its text after the guard`,
      );
    }
  });
});
