import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrivateFile, tightenFiles } from './private-files.ts';

/** The AES-256 key of the data directory, beside `jwt-secret`; back it up with `pbx.sqlite`. */
export const SECRET_KEY_FILE = 'secrets.key';
/** Sealed values start with this, so a stored value says whether it is sealed. */
export const SEALED_PREFIX = 'enc:v1:';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The data directory's key for secrets at rest (AMI and SIP secrets): 32 random bytes as hex,
 * created 0600 on first use and tightened to 0600 if an older copy is looser.
 */
export function loadSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, SECRET_KEY_FILE);
  createPrivateFile(file, randomBytes(32).toString('hex'));
  tightenFiles(file);
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} does not hold a valid key (64 hex characters).`);
  return Buffer.from(text, 'hex');
}

/**
 * Encrypts a secret with AES-256-GCM. `context` (the column, e.g. `extensions.secret`) is
 * authenticated with it, so a sealed value copied to another column does not open there.
 */
export function sealSecret(key: Buffer, clear: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Whether a stored value is sealed (anything else is clear text written before sealing existed). */
export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX);

/** Decrypts a sealed secret; an unsealed value is returned as it is. Throws when the key or context is wrong. */
export function openSecret(key: Buffer, stored: string, context: string): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error(`The sealed ${context} is truncated.`);
  const decipher = createDecipheriv(ALGORITHM, key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`The stored ${context} cannot be decrypted: ${SECRET_KEY_FILE} is not the key it was sealed with.`);
  }
}
