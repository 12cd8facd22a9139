import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { basicPasswordCredential } from './basic-credential.ts';
import type { AuthRequest } from './request.ts';

const request = (authorization?: string) =>
  ({ get: (name: string) => (name === 'authorization' ? (authorization ?? '') : '') }) as unknown as AuthRequest;
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('the API key as an HTTP Basic password', () => {
  test('the password is the token, whatever the user name (which may be empty or hold no colon)', () => {
    assert.deepEqual(basicPasswordCredential(request(basic(`feed:${'a'.repeat(64)}`))), {
      header: 'authorization',
      token: 'a'.repeat(64),
    });
    assert.deepEqual(basicPasswordCredential(request(basic(`:${'b'.repeat(64)}`))), {
      header: 'authorization',
      token: 'b'.repeat(64),
    });
    assert.deepEqual(basicPasswordCredential(request(`basic   ${Buffer.from('u:p:q').toString('base64')}`)), {
      header: 'authorization',
      token: 'p:q',
    });
  });

  test('a Basic header without a usable password is a malformed credential, not none', () => {
    for (const header of ['Basic', 'Basic !!!', basic('just-a-user'), basic('user:'), 'Basic a b']) {
      assert.deepEqual(basicPasswordCredential(request(header)), { header: 'authorization', token: null }, header);
    }
  });

  test('other schemes and no header are no Basic credential', () => {
    for (const header of [undefined, '', 'Bearer abc', 'Negotiate xyz', 'Basicx abc'])
      assert.equal(basicPasswordCredential(request(header)), undefined, String(header));
  });
});
