import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isSecretName, maskChanges, maskSecretsDeep, MASKED } from './secret-mask.ts';

describe('secret masking', () => {
  it('secret names: key, *_key, apiKey, token, accessToken, anything with secret or password; not key_display, keyId or monkey', () => {
    for (const name of [
      'key',
      'api_key',
      'x-api-key',
      'apiKey',
      'token',
      'accessToken',
      'refresh_token',
      'secret',
      'amiSecret',
      'password',
      'currentPassword',
      'passphrase',
      'authorization',
      'Cookie',
    ]) {
      assert.ok(isSecretName(name), name);
    }
    for (const name of [
      'key_display',
      'keyId',
      'keyDescription',
      'monkey',
      'description',
      'privateKeyPath',
      'port',
      'tokens_used_count',
    ])
      assert.ok(!isSecretName(name), name);
  });

  it('masks at any depth of objects and arrays, keeps empty secrets and other values', () => {
    const body = {
      config: {
        ami: { host: 'pbx', secret: 'S3' },
        users: [
          { login: 'a', password: 'P1' },
          { login: 'b', password: '' },
        ],
      },
      note: 'kept',
    };
    assert.deepEqual(maskSecretsDeep(body), {
      config: {
        ami: { host: 'pbx', secret: MASKED },
        users: [
          { login: 'a', password: MASKED },
          { login: 'b', password: '' },
        ],
      },
      note: 'kept',
    });
    assert.deepEqual(maskSecretsDeep({ deep: { sip_peer: 'x' } }, new Set(['sip_peer'])), {
      deep: { sip_peer: MASKED },
    });
    const error = new Error('kept as is');
    assert.equal(maskSecretsDeep(error), error);
  });

  it('a planted value under a secret name never survives, whatever the nesting (property)', () => {
    const planted = 'PLANTED-0f3c9a';
    const tree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.oneof(
        { maxDepth: 6 },
        fc.string(),
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'list', 'config'), tie('node'), { maxKeys: 3 }),
        fc.record({ secret: fc.constant(planted), other: tie('node') }),
        fc.record({ apiKey: fc.constant(planted) }),
      ),
    })).node;
    fc.assert(fc.property(tree, (value) => !JSON.stringify(maskSecretsDeep(value)).includes(planted)));
  });

  it('a nesting deeper than the bound is replaced whole, not walked', () => {
    let value: unknown = { secret: 'deep' };
    for (let i = 0; i < 100; i++) value = { next: value };
    assert.ok(!JSON.stringify(maskSecretsDeep(value)).includes('deep'));
  });

  it('maskChanges masks a secret-named change whole and nested secrets in before and after', () => {
    assert.deepEqual(
      maskChanges([
        { field: 'password', before: 'a', after: 'b' },
        { field: 'config', after: { ami: { secret: 'S' } } },
        { field: 'port', before: 1, after: 2 },
      ]),
      [
        { field: 'password', before: MASKED, after: MASKED },
        { field: 'config', after: { ami: { secret: MASKED } } },
        { field: 'port', before: 1, after: 2 },
      ],
    );
  });
});
