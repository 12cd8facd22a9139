import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditDiff, isSecretField, MASKED } from './diff.ts';

const fields = { name: {}, port: {}, secret: { writeOnly: true }, token_hint: { sensitive: true }, key_display: {} };

describe('audit diff', () => {
  it('an update lists only changed fields, before → after', () => {
    assert.deepEqual(auditDiff(fields, { name: 'a', port: 1 }, { name: 'b', port: 1 }, { name: 'b' }), [{ field: 'name', before: 'a', after: 'b' }]);
  });

  it('a write-only field written in the body shows masked, never its value; an empty one is not a change', () => {
    const diff = auditDiff(fields, { name: 'a' }, { name: 'a' }, { secret: 'p4ss' });
    assert.deepEqual(diff, [{ field: 'secret', after: MASKED }]);
    assert.deepEqual(auditDiff(fields, { name: 'a' }, { name: 'a' }, { secret: '' }), []);
  });

  it('sensitive and secret-named fields are masked on both sides', () => {
    const diff = auditDiff({ ...fields, api_password: {} }, { token_hint: 'x', api_password: 'old' }, { token_hint: 'y', api_password: 'new' }, {});
    assert.deepEqual(diff, [
      { field: 'token_hint', after: MASKED },
      { field: 'api_password', after: MASKED },
    ]);
    assert.ok(!JSON.stringify(diff).includes('old') && !JSON.stringify(diff).includes('new'));
  });

  it('a create has only after values, a delete only before values', () => {
    assert.deepEqual(auditDiff(fields, null, { name: 'n', secret: undefined }, { name: 'n', secret: 's' }), [
      { field: 'name', after: 'n' },
      { field: 'secret', after: MASKED },
    ]);
    assert.deepEqual(auditDiff(fields, { name: 'n', token_hint: 't' }, null, {}), [
      { field: 'name', before: 'n' },
      { field: 'token_hint', before: MASKED },
    ]);
  });

  it('a custom method records its body fields, secrets masked', () => {
    assert.deepEqual(auditDiff(fields, null, null, { ip: '192.0.2.1', password: 'x' }), [
      { field: 'ip', after: '192.0.2.1' },
      { field: 'password', after: MASKED },
    ]);
  });

  it('secret names: key, *_key, secret, password, token; key_display is not one', () => {
    for (const name of ['key', 'api_key', 'secret', 'ami_secret', 'password', 'currentPassword', 'token']) assert.ok(isSecretField(name, undefined), name);
    for (const name of ['key_display', 'description', 'port', 'keyId']) assert.ok(!isSecretField(name, undefined), name);
  });
});
