import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endsAt } from './ends-at.ts';

test('endsAt: Permanent has no end', () => {
  assert.equal(endsAt(Infinity), null);
});

test('endsAt: an amount ends that many seconds from now', () => {
  assert.equal(endsAt(3600, Date.parse('2026-01-01T00:00:00Z')), '2026-01-01T01:00:00.000Z');
});

test('endsAt: an empty amount goes as text the server rejects under the field', () => {
  assert.equal(endsAt(NaN), 'no end given');
});
