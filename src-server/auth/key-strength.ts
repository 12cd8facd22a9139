/**
 * Checks for client-chosen API keys. A key from crypto.randomBytes(32) has 256 bits; a typed or
 * patterned one can have almost none. The thresholds reject what a person makes up and let a
 * random key through with a probability of failure below 1e-8 (generateApiKey retries anyway).
 */

/** Below this many distinct hex digits a 64-digit key is patterned (random keys have 12 or more). */
const MIN_DISTINCT_DIGITS = 10;
/** Shannon entropy per digit; random keys average 3.77 bits of the possible 4. */
const MIN_ENTROPY_BITS = 3;
/** Keys that repeat with a period up to this length (`abab…`, `0123…f0123…f`) hold at most half a key. */
const MAX_PERIOD = 32;
/** A run of this many identical or consecutive digits (`0000000000`, `0123456789`, `fedcba9876`). */
const MAX_RUN = 10;

/** Shannon entropy of `text` in bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The shortest period of `text` up to `max`, or undefined when it does not repeat that soon. */
function shortPeriod(text: string, max: number): number | undefined {
  for (let period = 1; period <= max && period < text.length; period++) {
    let repeats = true;
    for (let i = period; i < text.length && repeats; i++) repeats = text[i] === text[i - period];
    if (repeats) return period;
  }
  return undefined;
}

/** The longest run of digits that stay the same, or go up or down by one, at each step. */
function longestRun(digits: number[]): number {
  let longest = 1;
  for (const step of [0, 1, -1]) {
    let run = 1;
    for (let i = 1; i < digits.length; i++) {
      run = digits[i]! - digits[i - 1]! === step ? run + 1 : 1;
      longest = Math.max(longest, run);
    }
  }
  return longest;
}

/**
 * Why a 64-hex key is too weak to accept, or undefined when it is strong enough.
 * Assumes the caller already checked the format (64 hexadecimal characters).
 */
export function keyWeakness(key: string): string | undefined {
  const text = key.toLowerCase();
  const period = shortPeriod(text, MAX_PERIOD);
  if (period === 1) return 'it is one character repeated';
  if (period !== undefined) return `it repeats a pattern of ${period} characters`;
  const distinct = new Set(text).size;
  if (distinct < MIN_DISTINCT_DIGITS) return `it uses only ${distinct} different hex digits`;
  const run = longestRun([...text].map((char) => parseInt(char, 16)));
  if (run >= MAX_RUN) return `it contains a run of ${run} repeated or consecutive digits`;
  const entropy = shannonEntropy(text);
  if (entropy < MIN_ENTROPY_BITS)
    return `its digits are too unevenly spread (${entropy.toFixed(2)} bits per digit, at least ${MIN_ENTROPY_BITS} needed)`;
  return undefined;
}
