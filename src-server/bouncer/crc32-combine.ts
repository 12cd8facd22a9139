/**
 * CRC-32 of A+B from crc(A), crc(B) and len(B), as zlib's crc32_combine (Node exposes crc32 but
 * not the combine). Lets a gzip trailer cover a shared compressed part and a per-poll part without
 * reading the shared bytes again. Matrix method over GF(2), O(log len) work.
 */
const POLY = 0xedb88320;

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]!);
}

export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  // The operator for one zero bit.
  odd[0] = POLY;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row >>> 0;
  gf2Square(even, odd); // two zero bits
  gf2Square(odd, even); // four zero bits
  let crc = crcA >>> 0;
  let length = lengthB;
  // Apply len(B) zero bytes to crc(A), squaring the operator for each bit of the length.
  do {
    gf2Square(even, odd);
    if (length & 1) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length & 1) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
  } while (length !== 0);
  return (crc ^ crcB) >>> 0;
}
