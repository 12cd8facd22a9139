import type { Context } from 'koa';
import { unauthorized, type HttpError } from '../http/errors.ts';
import type { Services } from '../services.ts';
import { remoteIp } from './remote-address.ts';

/** A credential header as presented; `token` is null when the header is malformed (`Basic x`, `Bearer`). */
export interface PresentedCredential {
  header: 'authorization' | 'x-api-key';
  token: string | null;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The credential a request presents. Authorization wins over X-Api-Key when both are sent (SPEC);
 * undefined when neither header is present.
 */
export function presentedCredential(ctx: Context): PresentedCredential | undefined {
  const authorization = ctx.get('authorization');
  if (authorization !== '' || 'authorization' in ctx.headers) {
    const match = BEARER.exec(authorization);
    return { header: 'authorization', token: match ? match[1]! : null };
  }
  if ('x-api-key' in ctx.headers) return { header: 'x-api-key', token: ctx.get('x-api-key').trim() || null };
  return undefined;
}

/**
 * A 401 for an invalid credential, reported to the intrusion-ban component first so repeated
 * guessing from one address ends in a ban. The reason never contains the credential itself.
 */
export function credentialRejected(services: Services, ctx: Context, reason: string, message?: string): HttpError {
  services.bus.emit({ type: 'security-failure', category: 'http', ip: remoteIp(ctx), reason });
  return unauthorized(message ?? `Invalid credential: ${reason}.`);
}
