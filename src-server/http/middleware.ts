import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { renderError } from './envelope.ts';
import { HttpError, uriTooLong } from './errors.ts';
import { sendEnvelope } from './respond.ts';

export const MAX_URL_LENGTH = 4096;

/**
 * Members a route family adds to every error, also to those raised before its route runs (URL and
 * body limits, guards, unknown verbs): the bouncer export's top-level `message` (CrowdSec clients
 * print it) and the legacy and module v1/v2 routes' `jsonapi`.
 */
export function familyErrorMembers(path: string, messages: string[]): Record<string, unknown> {
  if (path.startsWith('/pbxcore/api/v3/firewall-bouncer/')) return { message: messages.join('; ') };
  if (path.startsWith('/pbxcore/api/') && !path.startsWith('/pbxcore/api/v3/')) return { jsonapi: { version: '1.0' } };
  return {};
}

/** One error path: every failure ends as the SPEC's envelope. Unknown errors are logged and never leaked. */
export function errorRenderer(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpError) {
        sendEnvelope(ctx, renderError(error.status, error.messages, familyErrorMembers(ctx.path, error.messages)), error.headers);
        return;
      }
      const status = (error as { status?: number; expose?: boolean }).status;
      if (status && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
        const messages = [(error as Error).message];
        sendEnvelope(ctx, renderError(status, messages, familyErrorMembers(ctx.path, messages)));
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      sendEnvelope(ctx, renderError(500, ['Internal server error; the details are in the server log.']));
    }
  };
}

/** One log line per request. Never logs query strings or headers, which may carry keys. */
export function accessLog(logger: Logger) {
  return async function logAccess(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        { method: ctx.method, path: ctx.path.slice(0, 256), status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10, ip: ctx.req.socket.remoteAddress },
        'request',
      );
    }
  };
}

/** Very long URLs get 414 before any routing work. */
export async function urlLimit(ctx: Context, next: Next): Promise<void> {
  if (ctx.url.length > MAX_URL_LENGTH) throw uriTooLong(MAX_URL_LENGTH);
  await next();
}
