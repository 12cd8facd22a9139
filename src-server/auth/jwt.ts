import { readFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createPrivateFile, tightenFiles } from '../storage/private-files.ts';
import type { Role } from './principal.ts';

/** jose is loaded on the first token, not at start-up (it is one of the heaviest imports). */
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));

/** SPEC: access tokens last 900 s. */
export const ACCESS_TOKEN_SECONDS = 900;
/** Clock skew allowed on `iat`: a token issued further in the future than this was not issued by this server's clock. */
export const IAT_SKEW_SECONDS = 60;
const SECRET_FILE = 'jwt-secret';

/** Claims of an access token (ARCHITECTURE: sub, role, sid, iat, exp). */
export interface AccessClaims {
  sub: string;
  role: Role;
  sid: string;
}

/**
 * The HS256 secret, generated once in the data directory with mode 0600 (set whatever the umask).
 * An existing file keeps its value (tokens survive restarts) and is set back to 0600. The
 * secrets key (storage/secret-box.ts, secrets.key) sits beside it and is made the same way.
 */
export function loadJwtSecret(dataDir: string): Uint8Array {
  const file = join(dataDir, SECRET_FILE);
  createPrivateFile(file, randomBytes(64).toString('hex'));
  tightenFiles(file);
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64,}$/.test(text))
    throw new Error(`${file} does not hold a valid secret; delete it to generate a new one.`);
  return Buffer.from(text, 'hex');
}

/** Signs an access token valid for 900 s from `nowMs`. */
export async function signAccessToken(secret: Uint8Array, claims: AccessClaims, nowMs: number): Promise<string> {
  const { SignJWT } = await jose();
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({ role: claims.role, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
    .sign(secret);
}

/** Outcome of checking a token: its claims, or why it was refused (never the token itself). */
export type VerifyOutcome = { ok: true; claims: AccessClaims } | { ok: false; reason: string };

/**
 * Verifies an HS256 access token: alg none, other algorithms, bad signatures, expired, not-yet-valid and
 * future-issued (`iat` over 60 s ahead) tokens fail.
 */
export async function verifyAccessToken(secret: Uint8Array, token: string, nowMs: number): Promise<VerifyOutcome> {
  const { errors: joseErrors, jwtVerify } = await jose();
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (typeof payload.iat !== 'number' || payload.iat > nowMs / 1000 + IAT_SKEW_SECONDS)
      return { ok: false, reason: 'access token issued in the future' };
    const { sub, role, sid } = payload as { sub?: unknown; role?: unknown; sid?: unknown };
    if (typeof sub !== 'string' || typeof sid !== 'string' || (role !== 'admin' && role !== 'viewer')) {
      return { ok: false, reason: 'access token claims are incomplete' };
    }
    return { ok: true, claims: { sub, role, sid } };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'access token expired' };
    if (error instanceof joseErrors.JWTClaimValidationFailed)
      return { ok: false, reason: `access token claim "${error.claim}" is not valid` };
    if (error instanceof joseErrors.JOSEAlgNotAllowed)
      return { ok: false, reason: 'access token algorithm is not allowed' };
    if (error instanceof joseErrors.JWSSignatureVerificationFailed)
      return { ok: false, reason: 'access token signature is not valid' };
    return { ok: false, reason: 'access token is malformed' };
  }
}
