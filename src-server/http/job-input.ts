import type { Context } from 'koa';
import { canReadSensitive } from '../auth/authorize.ts';
import { sessionContextOf, type Principal } from '../auth/principal.ts';
import { remoteIp } from '../auth/remote-address.ts';
import type { AuditActor } from '../wire/types.ts';
import type { JobTarget } from '../queue/messages.ts';
import type { JobInput } from '../queue/request-queue.ts';
import { forwardedHeaders } from './forwarded-headers.ts';

/** Builds a queue job from an authenticated request: the one place v3, legacy and module routes share. */
export function jobFromRequest(
  ctx: Context,
  principal: Principal,
  target: JobTarget,
  options: { body?: unknown; envelopeExtra?: Record<string, unknown> } = {},
): JobInput {
  return {
    target,
    query: ctx.query as Record<string, string | string[]>,
    // No body at all is an empty object; a JSON `null` body stays null, so saves refuse it (422).
    body: options.body ?? (ctx.request.body === undefined ? {} : ctx.request.body),
    headers: forwardedHeaders(ctx.headers),
    session: sessionContextOf(principal),
    canReadSensitive: canReadSensitive(principal),
    actor: auditActorOf(ctx, principal),
    // Debug requests are exempt from the queue TTL (SPEC).
    ttlExempt: ctx.get('x-pbx-debug') === '1',
    ...(options.envelopeExtra ? { envelopeExtra: options.envelopeExtra } : {}),
  };
}

/** Who the audit log names for a request: the channel, the user or API key, the socket address. */
export function auditActorOf(ctx: Context, principal: Principal): AuditActor {
  const address = remoteIp(ctx);
  switch (principal.channel) {
    case 'public':
      return { channel: 'public', name: null, keyId: null, address };
    case 'localhost':
      return { channel: 'localhost', name: 'localhost', keyId: null, address };
    case 'session':
      return { channel: 'session', name: principal.userName, keyId: null, address };
    case 'bearer_token':
      return principal.kind === 'jwt'
        ? { channel: 'jwt', name: principal.userName, keyId: null, address }
        : { channel: 'api_key', name: null, keyId: principal.keyId, address };
  }
}
