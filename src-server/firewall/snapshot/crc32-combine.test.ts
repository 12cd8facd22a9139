import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { crc32Combine } from './crc32-combine.ts';

test("crc32Combine gives zlib's CRC-32 of the concatenation, for any two byte strings", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
      const whole = crc32(Buffer.concat([a, b])) >>> 0;
      assert.equal(crc32Combine(crc32(a), crc32(b), b.length), whole);
    }),
    { numRuns: 500 },
  );
});

test('crc32Combine folds many parts, large ones included, into the CRC of the whole', () => {
  const parts = [Buffer.alloc(0), Buffer.alloc(70_000, 'a'), Buffer.from('{"new":['), Buffer.alloc(1 << 20, 7)];
  let crc = 0;
  for (const part of parts) crc = crc32Combine(crc, crc32(part), part.length);
  assert.equal(crc, crc32(Buffer.concat(parts)) >>> 0);
});
