// Node's zlib has crc32() but not zlib's crc32_combine(), and no maintained npm package offers it:
// this is zlib's own method (crc32.c, multmodp and x2nmodp), a few lines over 32-bit polynomials.
// It lets a gzip answer's CRC come from the CRCs of its parts, each computed once.

/** The CRC-32 polynomial, reflected. */
const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC polynomial (reflected bit order); `a` must not be 0. */
function multiplyModP(a: number, b: number): number {
  let m = 1 << 31;
  let product = 0;
  for (;;) {
    if (a & m) {
      product ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^n) modulo the polynomial, for n = 0..31. */
const X2N = (() => {
  const table = new Array<number>(32);
  let p = 1 << 30; // x^1
  table[0] = p >>> 0;
  for (let n = 1; n < 32; n++) table[n] = p = multiplyModP(p, p);
  return table;
})();

/** x^(n * 2^k) modulo the polynomial. */
function xPowerModP(n: number, k: number): number {
  let p = (1 << 31) >>> 0; // x^0
  while (n > 0) {
    if (n % 2 === 1) p = multiplyModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B, from CRC(A), CRC(B) and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  return (multiplyModP(xPowerModP(lengthB, 3), crcA >>> 0) ^ crcB) >>> 0;
}
