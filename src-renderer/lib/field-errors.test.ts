import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from './api-client.ts';
import { fieldErrors } from './field-errors.ts';

const FIELDS = ['permit', 'deny', 'newer_block_ip', 'block', 'currentRules'] as const;

describe('fieldErrors', () => {
  it('puts a message under the field it starts with, without the field name, capitalised', () => {
    const error = new ApiError(422, ['permit: 300.1.1.1 is not valid', 'deny: required']);
    assert.deepEqual(fieldErrors(error, FIELDS), {
      byField: { permit: '300.1.1.1 is not valid', deny: 'Required' },
      other: [],
    });
  });

  it('a prefix with a path goes under its field and keeps the rest of the path', () => {
    const error = new ApiError(422, ['currentRules.SIP: must be a boolean']);
    assert.deepEqual(fieldErrors(error, FIELDS).byField, { currentRules: 'SIP: must be a boolean' });
  });

  it('without a prefix, the longest field named as a whole word; words later in a prefixed message do not move it', () => {
    const named = fieldErrors(new ApiError(422, ['The newer_block_ip value must be 0 or 1']), FIELDS);
    assert.deepEqual(named.byField, { newer_block_ip: 'The newer_block_ip value must be 0 or 1' });
    const prefixed = fieldErrors(new ApiError(422, ['deny: overlaps the permit network']), FIELDS);
    assert.deepEqual(Object.keys(prefixed.byField), ['deny']);
    const partWord = fieldErrors(new ApiError(422, ['blocked too often']), FIELDS);
    assert.deepEqual(partWord, { byField: {}, other: ['blocked too often'] }, '"blocked" is not the field "block"');
  });

  it('keeps the first message per field; the second and unmatched ones go to other', () => {
    const error = new ApiError(422, ['deny: required', 'deny: too long', 'Something else failed']);
    assert.deepEqual(fieldErrors(error, FIELDS), {
      byField: { deny: 'Required' },
      other: ['deny: too long', 'Something else failed'],
    });
  });

  it('an error that is not an ApiError is one other message; no error is none', () => {
    assert.deepEqual(fieldErrors(new Error('offline'), FIELDS), { byField: {}, other: ['offline'] });
    assert.deepEqual(fieldErrors(null, FIELDS), { byField: {}, other: [] });
  });

  it("counts a list's entries from 1 under the field, as a technician does (the server counts from 0)", () => {
    const error = new ApiError(422, ['deny.0: each multiplier must be a number']);
    assert.deepEqual(fieldErrors(error, FIELDS).byField, { deny: 'Value 1: each multiplier must be a number' });
  });
});
