import { forbidden, unauthorized, type HttpError } from '../wire/errors.ts';
import { pathAllowed } from './allowed-paths.ts';
import { API_KEY_PATTERN, findApiKey, keyExpired, touchApiKey, type StoredApiKey } from './api-key-store.ts';
import { credentialRejected, presentedCredential, reportRejection, type PresentedCredential } from './credentials.ts';
import { sourceAllowed } from './network-binding.ts';
import { remoteIp } from './remote-address.ts';
import type { AuthDeps, AuthRequest } from './request.ts';

/**
 * Validates an API key token: one indexed lookup (no cache, so a deleted, disabled, expired or
 * rotated-away key fails at once), then the network filter binding (403 from another source).
 * Records the use at most once a minute per (key, source address).
 *
 * A disabled or expired key is refused with 401 but is not a `security-failure`: whoever sends it
 * holds a real key (typically a bouncer whose key the operator disabled), and counting its polls
 * would end in banning that host. Unknown keys are guesses and do count.
 */
export function resolveApiKey(services: AuthDeps, ctx: AuthRequest, token: string): StoredApiKey {
  if (!API_KEY_PATTERN.test(token))
    throw credentialRejected(services, ctx, 'malformed API key', undefined, { kind: 'rejected-key' });
  const key = findApiKey(services.db, token);
  if (!key) throw credentialRejected(services, ctx, 'unknown or revoked API key', undefined, { kind: 'rejected-key' });
  if (key.disabledAt !== null) {
    throw keyRefused(
      services,
      ctx,
      key,
      'disabled',
      'disabled API key',
      unauthorized(`This API key is disabled (since ${key.disabledAt}): enable it in the console or use another key.`),
    );
  }
  if (keyExpired(key, services.clock.now())) {
    throw keyRefused(
      services,
      ctx,
      key,
      'expired',
      'expired API key',
      unauthorized(`This API key expired at ${key.expiresAt}: set a later expiry in the console or use another key.`),
    );
  }
  const ip = remoteIp(ctx);
  if (!sourceAllowed(services.db, key.networkFilterId, ip)) {
    throw keyRefused(
      services,
      ctx,
      key,
      'wrong-source',
      `source address ${ip} not permitted by the key's network binding`,
      forbidden(`This API key is bound to a network filter that does not permit ${ip}.`),
    );
  }
  touchApiKey(services.db, key.id, ip, services.clock.now());
  return key;
}

/** Whether a key may call `path` with `method`: full_permissions, or allowed_paths (an empty map denies). */
export function apiKeyMayCall(
  key: Pick<StoredApiKey, 'fullPermissions' | 'allowedPaths'>,
  path: string,
  method: string,
): boolean {
  return key.fullPermissions || pathAllowed(key.allowedPaths, path, method);
}

/**
 * API-key-only authentication for endpoints that accept nothing else (the firewall bouncer export).
 * `X-Api-Key` or `Authorization: Bearer`; no JWT, no session, no localhost bypass.
 * `method` is the access the endpoint needs (GET for read). Returns the key, or throws 401
 * (missing or invalid key) or 403 (path or source not allowed). `credential` lets a caller accept
 * another form (the blocklist feed's HTTP Basic password).
 */
export function authenticateApiKeyOnly(
  services: AuthDeps,
  ctx: AuthRequest,
  path: string = ctx.path,
  method: string = ctx.method,
  credential: PresentedCredential | undefined = presentedCredential(ctx),
): StoredApiKey {
  if (!credential)
    throw unauthorized('An API key is required: send X-Api-Key: <API_KEY> or Authorization: Bearer <API_KEY>.');
  if (credential.token === null)
    throw credentialRejected(services, ctx, `malformed ${credential.header} header`, undefined, {
      kind: 'rejected-key',
    });
  const key = resolveApiKey(services, ctx, credential.token);
  if (!apiKeyMayCall(key, path, method)) {
    const message = `This API key is not allowed to ${method === 'GET' || method === 'HEAD' ? 'read' : 'write'} ${path}.`;
    throw keyRefused(services, ctx, key, 'not-allowed', message, forbidden(message));
  }
  return key;
}

/** Why a known key was refused. */
export type KeyRefusalCode = 'disabled' | 'expired' | 'wrong-source' | 'not-allowed';

const refusals = new WeakMap<HttpError, { keyId: number; code: KeyRefusalCode }>();

/** The known key an error refused, and why (undefined for an unknown, malformed or missing key). */
export function refusedKeyOf(error: HttpError): { keyId: number; code: KeyRefusalCode } | undefined {
  return refusals.get(error);
}

/** A known key refused (disabled, expired, wrong source, path not allowed): reported to the audit log with its id. */
function keyRefused(
  services: AuthDeps,
  ctx: AuthRequest,
  key: StoredApiKey,
  code: KeyRefusalCode,
  reason: string,
  error: HttpError,
): HttpError {
  reportRejection(services, ctx, { kind: 'rejected-key', status: error.status, reason, keyId: key.id });
  refusals.set(error, { keyId: key.id, code });
  return error;
}
