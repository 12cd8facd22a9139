import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterQuery } from './query-filter.ts';

describe('filterQuery', () => {
  it('trims text, leaves out what filters nothing, keeps the page numbers (0 included)', () => {
    assert.deepEqual(
      filterQuery({ search: '  203.0.113 ', state: '', kind: 'write', note: '   ', limit: 50, offset: 0 }),
      {
        search: '203.0.113',
        state: undefined,
        kind: 'write',
        note: undefined,
        limit: 50,
        offset: 0,
      },
    );
  });
});
