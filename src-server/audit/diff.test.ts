import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditDiff, declaredSecretNames, isSecretField, MASKED } from './diff.ts';

const fields = { name: {}, port: {}, secret: { writeOnly: true }, token_hint: { sensitive: true }, key_display: {} };

describe('audit diff', () => {
  it('an update lists only changed fields, before → after', () => {
    assert.deepEqual(auditDiff(fields, { name: 'a', port: 1 }, { name: 'b', port: 1 }, { name: 'b' }), [
      { field: 'name', before: 'a', after: 'b' },
    ]);
  });

  it('a write-only field written in the body shows masked, never its value; an empty one is not a change', () => {
    const diff = auditDiff(fields, { name: 'a' }, { name: 'a' }, { secret: 'p4ss' });
    assert.deepEqual(diff, [{ field: 'secret', after: MASKED }]);
    assert.deepEqual(auditDiff(fields, { name: 'a' }, { name: 'a' }, { secret: '' }), []);
  });

  it('sensitive and secret-named fields are masked on both sides', () => {
    const diff = auditDiff(
      { ...fields, api_password: {} },
      { token_hint: 'x', api_password: 'old' },
      { token_hint: 'y', api_password: 'new' },
      {},
    );
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
    for (const name of ['key', 'api_key', 'secret', 'ami_secret', 'password', 'currentPassword', 'token'])
      assert.ok(isSecretField(name, undefined), name);
    for (const name of ['key_display', 'description', 'port', 'keyId'])
      assert.ok(!isSecretField(name, undefined), name);
  });

  it('a custom method body is masked at any depth: a backup import config.ami.secret', () => {
    const diff = auditDiff({}, null, null, {
      config: { ami: { host: 'pbx', secret: 'AMI-S3CRET' }, extensions: [{ number: '201', secret: 'SIP-S3CRET' }] },
      dryRun: false,
    });
    assert.deepEqual(diff, [
      {
        field: 'config',
        after: { ami: { host: 'pbx', secret: MASKED }, extensions: [{ number: '201', secret: MASKED }] },
      },
      { field: 'dryRun', after: false },
    ]);
  });

  it("nested members named like another resource's declared secret are masked; top-level ones follow the own declaration", () => {
    const secretNames = declaredSecretNames([{ fields: { sip_peer_pass: { writeOnly: true }, name: {} } }]);
    const diff = auditDiff(
      { sip_peer_pass: {} },
      { sip_peer_pass: 'a', nested: { sip_peer_pass: 'b' } },
      { sip_peer_pass: 'c', nested: { sip_peer_pass: 'd' } },
      {},
      secretNames,
    );
    assert.deepEqual(diff, [
      { field: 'sip_peer_pass', before: 'a', after: 'c' },
      { field: 'nested', before: { sip_peer_pass: MASKED }, after: { sip_peer_pass: MASKED } },
    ]);
  });
});
