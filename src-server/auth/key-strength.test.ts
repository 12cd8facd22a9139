import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { API_KEY_PATTERN, generateApiKey } from './api-key-store.ts';
import { keyWeakness, shannonEntropy } from './key-strength.ts';

const HEX = '0123456789abcdef';
const hexDigit = fc.constantFrom(...HEX);
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('API key strength', () => {
  it('every generated key passes (crypto.randomBytes, 20,000 draws)', () => {
    for (let i = 0; i < 20_000; i++) {
      const key = generateApiKey();
      assert.match(key, API_KEY_PATTERN);
      assert.equal(keyWeakness(key), undefined, key);
    }
  });

  it('uniformly random 32-byte keys pass (property)', () => {
    // noBias: uniform bytes like crypto.randomBytes, not fast-check's small-value bias.
    fc.assert(
      fc.property(
        fc.noBias(fc.uint8Array({ minLength: 32, maxLength: 32 })),
        (bytes) => keyWeakness(toHex(bytes)) === undefined,
      ),
      { numRuns: 5_000 },
    );
  });

  it('a key repeating any pattern of up to 32 characters is refused (property)', () => {
    const periodic = fc.array(hexDigit, { minLength: 1, maxLength: 32 }).map((unit) =>
      unit
        .join('')
        .repeat(Math.ceil(64 / unit.length))
        .slice(0, 64),
    );
    fc.assert(fc.property(periodic, (key) => keyWeakness(key) !== undefined));
  });

  it('a run of 10 or more repeated or consecutive digits anywhere is refused (property)', () => {
    const run = fc
      .record({
        start: fc.integer({ min: 0, max: 15 }),
        step: fc.constantFrom(0, 1, -1),
        length: fc.integer({ min: 10, max: 16 }),
      })
      .filter(({ start, step, length }) => start + step * (length - 1) >= 0 && start + step * (length - 1) <= 15)
      .map(({ start, step, length }) => Array.from({ length }, (_, i) => HEX[start + step * i]!).join(''));
    const keyWithRun = fc
      .tuple(run, fc.noBias(fc.uint8Array({ minLength: 32, maxLength: 32 })), fc.integer({ min: 0, max: 54 }))
      .map(([r, bytes, at]) => {
        const filler = toHex(bytes);
        const position = Math.min(at, 64 - r.length);
        return filler.slice(0, position) + r + filler.slice(position + r.length);
      });
    fc.assert(fc.property(keyWithRun, (key) => key.length === 64 && keyWeakness(key) !== undefined));
  });

  it('a key drawn from 9 or fewer digits is refused (property)', () => {
    const fewDigits = fc
      .shuffledSubarray([...HEX], { minLength: 1, maxLength: 9 })
      .chain((alphabet) => fc.array(fc.constantFrom(...alphabet), { minLength: 64, maxLength: 64 }))
      .map((digits) => digits.join(''));
    fc.assert(fc.property(fewDigits, (key) => keyWeakness(key) !== undefined));
  });

  it('low entropy is refused even with many distinct digits', () => {
    assert.equal(shannonEntropy('0123456789abcdef'), 4);
    const skewed =
      '5'.repeat(6) +
      'a'.repeat(6) +
      '5'.repeat(6) +
      'a'.repeat(6) +
      '5'.repeat(6) +
      'a'.repeat(6) +
      '5'.repeat(6) +
      'a'.repeat(6) +
      '1b3d0f2e4c698789';
    assert.equal(skewed.length, 64);
    assert.ok(new Set(skewed).size >= 10);
    assert.ok(shannonEntropy(skewed) < 3);
    assert.match(keyWeakness(skewed) ?? '', /bits per digit/);
  });
});
