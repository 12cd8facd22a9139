import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { renderError } from './envelope.ts';
import { HttpError, uriTooLong } from './errors.ts';
import { sendEnvelope } from './respond.ts';

export const MAX_URL_LENGTH = 4096;

/** One error path: every failure ends as the SPEC's envelope. Unknown errors are logged and never leaked. */
export function errorRenderer(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpError) {
        sendEnvelope(ctx, renderError(error.status, error.messages), error.headers);
        return;
      }
      const status = (error as { status?: number; expose?: boolean }).status;
      if (status && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
        sendEnvelope(ctx, renderError(status, [(error as Error).message]));
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
