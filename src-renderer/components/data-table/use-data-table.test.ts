import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchingRows, shownSelection, withKeys } from './use-data-table.ts';

const search = { label: 'Search', text: (row: { ip: string; reason: string }) => `${row.ip} ${row.reason}` };
const rows = [
  { ip: '192.0.2.1', reason: 'SIP flood' },
  { ip: '198.51.100.7', reason: 'Manual' },
];

describe('data table rows and selection', () => {
  it('keeps the rows whose search text holds the trimmed term, case-insensitive, in order', () => {
    assert.deepEqual(matchingRows(rows, search, '  sip '), [rows[0]]);
    assert.deepEqual(matchingRows(rows, search, 'MANUAL'), [rows[1]]);
    assert.deepEqual(matchingRows(rows, search, 'nothing'), []);
  });

  it('keeps every row without a term or without a search', () => {
    assert.deepEqual(matchingRows(rows, search, '   '), rows);
    assert.deepEqual(matchingRows(rows, undefined, 'sip'), rows);
  });

  it('ticks and unticks keys on a copy, leaving the keys not named alone', () => {
    const selected = new Set(['a']);
    assert.deepEqual([...withKeys(selected, ['b', 'c'], true)], ['a', 'b', 'c']);
    assert.deepEqual([...withKeys(new Set(['a', 'b']), ['b', 'x'], false)], ['a']);
    assert.deepEqual([...selected], ['a']);
  });

  it('says whether none, some or all of the shown rows are ticked', () => {
    assert.equal(shownSelection(new Set(['z']), ['a', 'b']), 'none');
    assert.equal(shownSelection(new Set(['a']), ['a', 'b']), 'some');
    assert.equal(shownSelection(new Set(['a', 'b', 'z']), ['a', 'b']), 'all');
    assert.equal(shownSelection(new Set(), []), 'none');
  });
});
