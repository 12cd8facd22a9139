import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { isSealed, openSecret, sealSecret } from './secret-box.ts';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('seals with a fresh IV each time and opens back to the clear text', () => {
    const a = sealSecret(key, 'pässwörd', 'extensions.secret');
    const b = sealSecret(key, 'pässwörd', 'extensions.secret');
    assert.ok(isSealed(a) && a !== b);
    assert.equal(openSecret(key, a, 'extensions.secret'), 'pässwörd');
  });

  it('refuses another key, another column, and a tampered value', () => {
    const sealed = sealSecret(key, 'secret', 'extensions.secret');
    assert.throws(() => openSecret(randomBytes(32), sealed, 'extensions.secret'), /secrets\.key is not the key/);
    assert.throws(() => openSecret(key, sealed, 'providers.secret'), /cannot be decrypted/);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BA' : 'AA');
    assert.throws(() => openSecret(key, tampered, 'extensions.secret'), /cannot be decrypted/);
  });

  it('passes a value stored before sealing through unchanged', () => {
    assert.equal(openSecret(key, 'written in clear', 'ami.secret'), 'written in clear');
  });
});
