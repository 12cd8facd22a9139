import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { csvCells as cells } from '../../test-support/csv.ts';
import { FORMULA_TEXTS } from '../../test-support/hostile-text.ts';
import { renderBanExport } from './ban-export.ts';
import { parseBanList } from './ban-import.ts';
import type { BannedIp } from '../bans/index.ts';
import { defuseCell, restoreCell } from '../../../src-shared/csv-cells.ts';

const bans: BannedIp[] = FORMULA_TEXTS.map((reason, i) => ({
  ip: `192.0.2.${i + 1}`,
  category: 'manual',
  reason,
  bannedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T01:00:00.000Z',
  secondsLeft: 3600,
  bannedBy: 'admin',
  services: i % 2 ? ['SIP', 'WEB'] : null,
  permanent: false,
  banNumber: 0,
}));

describe('csv exports never hold a formula, and import back exactly', () => {
  test('no exported cell starts with =, +, -, @, a tab or a CR', () => {
    const rows = cells(renderBanExport(bans, 'csv'));
    assert.equal(rows.length, bans.length + 1);
    for (const row of rows) {
      assert.equal(row.length, 7, JSON.stringify(row));
      for (const cell of row) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, JSON.stringify(cell));
    }
    const reasons = new Map(rows.slice(1).map((row) => [row[0], row[2]]));
    assert.equal(reasons.get('192.0.2.1'), "'=1+1", 'a formula is kept as text behind a quote');
    assert.equal(reasons.get('192.0.2.8'), "''=already quoted");
    assert.equal(reasons.get('192.0.2.10'), "'plain apostrophe", 'nothing added where nothing is evaluated');
  });

  test('export then import gives every reason back unchanged, and the durations and services with it', () => {
    const read = parseBanList(renderBanExport(bans, 'csv'), 'csv', { seconds: 60, reason: 'default' });
    assert.deepEqual(read.errors, []);
    const byValue = (rows: unknown[][]) => rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    assert.deepEqual(
      byValue(read.bans.map((b) => [b.value, b.reason, b.seconds, b.services])),
      byValue(bans.map((b) => [b.ip, b.reason, 3600, b.services])),
    );
  });

  test('a third-party list without the guard reads as written', () => {
    const read = parseBanList("value,reason\n192.0.2.1,'quoted\n192.0.2.2,=raw\n", 'csv', { seconds: 60, reason: '' });
    assert.deepEqual(
      read.bans.map((b) => b.reason),
      ["'quoted", '=raw'],
    );
  });

  test('defuse and restore are inverse on every text', () => {
    for (const text of [...FORMULA_TEXTS, '', "'", "''", '-', "'-", 'plain'])
      assert.equal(restoreCell(defuseCell(text)), text);
  });
});
