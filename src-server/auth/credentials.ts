import { unauthorized, type HttpError } from '../wire/errors.ts';
import type { AuditRejection } from '../wire/types.ts';
import { remoteIp } from './remote-address.ts';
import type { AuthDeps, AuthRequest } from './request.ts';

/** A credential header as presented; `token` is null when it is malformed (`Bearer`, `Bearer a b`, an empty X-Api-Key). */
export interface PresentedCredential {
  header: 'authorization' | 'x-api-key';
  token: string | null;
}

const SCHEME = /^[ \t]*(\S+)/;
const BEARER_TOKEN = /^[ \t]*\S+[ \t]+(\S+)[ \t]*$/;

/**
 * The credential a request presents. Only `Authorization: Bearer …` counts: any other scheme
 * (a proxy's `Basic`, `Negotiate`, an empty header) is ignored, so `X-Api-Key` still works behind
 * such a proxy. A Bearer header wins over X-Api-Key (SPEC); a malformed one (`Bearer`, `Bearer None`)
 * still counts and is rejected by the caller. Undefined when the request presents nothing.
 */
export function presentedCredential(ctx: AuthRequest): PresentedCredential | undefined {
  const authorization = ctx.get('authorization');
  if (SCHEME.exec(authorization)?.[1]!.toLowerCase() === 'bearer') {
    const match = BEARER_TOKEN.exec(authorization);
    return { header: 'authorization', token: match ? match[1]! : null };
  }
  if ('x-api-key' in ctx.headers) return { header: 'x-api-key', token: ctx.get('x-api-key').trim() || null };
  return undefined;
}

/**
 * A 401 for an invalid credential, reported to the intrusion-ban component first so repeated
 * guessing from one address ends in a ban. The reason never contains the credential itself.
 */
export function credentialRejected(
  services: AuthDeps,
  ctx: AuthRequest,
  reason: string,
  message?: string,
  audit?: Pick<AuditRejection, 'kind' | 'login'>,
): HttpError {
  const credential = audit?.kind === 'rejected-key' ? { credential: 'api-key' as const } : {};
  services.bus.emit({ type: 'security-failure', category: 'http', ip: remoteIp(ctx), reason, ...credential });
  // The audit log keeps refused API keys and failed logins (`audit`); a bad JWT is only a security failure.
  if (audit) reportRejection(services, ctx, { ...audit, status: 401, reason });
  return unauthorized(message ?? `Invalid credential: ${reason}.`);
}

/** Reports a rejected API key use or failed login to the audit log (audit/recorder.ts batches them). */
export function reportRejection(
  services: Pick<AuthDeps, 'bus'>,
  ctx: AuthRequest,
  rejection: Omit<AuditRejection, 'address' | 'method' | 'path'>,
): void {
  services.bus.emit({
    type: 'access-rejected',
    entry: { ...rejection, address: remoteIp(ctx), method: ctx.method, path: ctx.path.slice(0, 300) },
  });
}
