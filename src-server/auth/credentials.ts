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
export function credentialRejected(services: AuthDeps, ctx: AuthRequest, reason: string, message?: string, details: { login?: string } = {}): HttpError {
  services.bus.emit({ type: 'security-failure', category: 'http', ip: remoteIp(ctx), reason });
  const kind = auditKindOf(reason);
  if (kind) reportRejection(services, ctx, { kind, status: 401, reason, ...details });
  return unauthorized(message ?? `Invalid credential: ${reason}.`);
}

/** Which rejections the audit log keeps: API key uses and failed logins (a bad JWT is only a security failure). */
function auditKindOf(reason: string): AuditRejection['kind'] | undefined {
  if (/login/i.test(reason) && !/access token/i.test(reason)) return 'failed-login';
  if (/api key|x-api-key/i.test(reason)) return 'rejected-key';
  return undefined;
}

/** Reports a rejected API key use or failed login to the audit log (audit/recorder.ts batches them). */
export function reportRejection(
  services: Pick<AuthDeps, 'bus'>,
  ctx: AuthRequest,
  rejection: Omit<AuditRejection, 'address' | 'method' | 'path'>,
): void {
  services.bus.emit({ type: 'access-rejected', entry: { ...rejection, address: remoteIp(ctx), method: ctx.method, path: ctx.path.slice(0, 300) } });
}
