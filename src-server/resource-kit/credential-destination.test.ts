import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkCredentialChange, type CredentialChange } from './credential-destination.ts';

const destinations = { url: ['password', 'key'], login: ['password'] } as const;
const stored = { url: 'http://lapi/', login: 'site', password: 'p', key: 'k' };

const check = (after: Record<string, unknown>, sent: string[] = [], extra: Partial<CredentialChange> = {}) =>
  checkCredentialChange({
    destinations,
    before: stored,
    after: { ...stored, ...after },
    sent: new Set(sent),
    sensitive: false,
    ...extra,
  });

test('without SENSITIVE a destination moves only with every stored secret it guards re-entered', () => {
  assert.equal(check({ url: 'http://evil/' }).ok, false);
  assert.equal(check({ url: 'http://evil/' }, ['password']).ok, false, 'the key was not re-entered');
  assert.equal(check({ url: 'http://evil/' }, ['password', 'key']).ok, true);
  assert.equal(check({ login: 'other' }, ['password']).ok, true, 'the login guards the password only');
  assert.equal(check({ url: 'http://evil/' }, [], { before: { ...stored, password: '', key: '' } }).ok, true);
  assert.equal(check({ url: 'http://evil/' }, [], { sensitive: true }).ok, true);
  assert.equal(check({ url: 'http://lapi/' }).ok, true, 'an unchanged value moves nothing');
  assert.equal(check({ url: '' }).ok, true, 'a cleared destination sends nothing');
  assert.equal(
    check({ url: 'http://evil/' }, [], { before: { ...stored, url: '' } }).ok,
    false,
    'a move from nothing is guarded too',
  );
});

test('without SENSITIVE a secret that is not the stored one is refused as a guess, naming the field', () => {
  const verdict = check({ password: 'guess' }, ['password']);
  assert.equal(verdict.ok, false);
  assert.ok(!verdict.ok);
  assert.deepEqual(verdict.fields, ['password']);
  assert.equal(verdict.wrongGuess, true);
  assert.match(verdict.message, /^password: setting the password needs the SENSITIVE level/);
  const moved = check({ url: 'http://evil/', login: 'x' }, [], { section: 'link' });
  assert.ok(!moved.ok);
  assert.deepEqual(moved.fields, ['url', 'login']);
  assert.equal(moved.status, 403);
  assert.match(moved.message, /^link: changing url, login makes the server send the stored password and key/);
});
