import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { renderError, type RenderedEnvelope } from '../wire/envelope.ts';
import { HttpError, uriTooLong } from '../wire/errors.ts';
import { renderFamilyError, routeFamilyOf } from './family-errors.ts';
import { sendEnvelope } from './respond.ts';
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from './security-headers.ts';

export const MAX_URL_LENGTH = 4096;

/** One error path: every failure ends as the SPEC's envelope. Unknown errors are logged and never leaked. */
export function errorRenderer(logger: Logger) {
  return async function renderErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpError) {
        sendEnvelope(ctx, renderFamilyError(routeFamilyOf(ctx.path), error.status, error.messages), error.headers);
        return;
      }
      const status = (error as { status?: number; expose?: boolean }).status;
      if (status && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
        const messages = [(error as Error).message];
        sendEnvelope(ctx, renderFamilyError(routeFamilyOf(ctx.path), status, messages));
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      sendEnvelope(ctx, renderError(500, ['Internal server error; the details are in the server log.']));
    }
  };
}

/**
 * One log line per request, at debug: bouncers and open consoles poll all day, so at the default
 * level the terminal shows events instead (terminal-log.ts). Never logs query strings or headers,
 * which may carry keys.
 */
export function accessLog(logger: Logger) {
  return async function logAccess(ctx: Context, next: Next): Promise<void> {
    if (!logger.isLevelEnabled('debug')) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.debug(
        {
          method: ctx.method,
          path: ctx.path.slice(0, 256),
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          ip: ctx.req.socket.remoteAddress,
        },
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

/**
 * The status line and headers of an answer written straight on a socket, where Koa never runs (the
 * HTTP parser's errors, CONNECT): the same Content-Type and E-Tag (`"<meta.hash>"`) as every
 * envelope sendEnvelope writes. The caller appends the body, or not for HEAD.
 */
export function rawResponseHead(
  status: number,
  reason: string,
  rendered: RenderedEnvelope,
  headers: Record<string, string> = {},
): string {
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(rendered.body)}`,
    `E-Tag: "${rendered.hash}"`,
    ...Object.entries({ ...SECURITY_HEADERS, ...headers }).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Methods this server answers; what a 405 to CONNECT lists in Allow. */
const SERVED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * Node hands CONNECT requests to the server's 'connect' listener and, without one, drops the
 * socket. This server is no proxy: the answer is a 405 envelope, then the connection closes.
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  const rendered = renderError(405, ['CONNECT is not supported: this server is not a proxy.']);
  socket.end(
    rawResponseHead(405, 'Method Not Allowed', rendered, { Allow: SERVED_METHODS, ...transportHeaders(socket) }) +
      rendered.body,
  );
}

/** HSTS on the HTTPS listener's socket answers too, like its Koa answers (security-headers.ts). */
function transportHeaders(socket: Duplex): Record<string, string> {
  return (socket as { encrypted?: boolean }).encrypted === true
    ? { 'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY }
    : {};
}

/**
 * Requests Node's HTTP parser rejects (malformed, headers too large) still get an envelope, never a
 * bare reset: the route family's error members, and no body for HEAD. Both listeners use it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 431 ? 'Request headers are too large.' : 'Malformed HTTP request.';
  // The request line, when the parser got that far.
  const [, method = '', path = ''] =
    /^([A-Z]+) (\S+) /.exec((error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 8192).toString('latin1') ?? '') ??
    [];
  const rendered = renderFamilyError(routeFamilyOf(path.split('?')[0]!), status, [message]);
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  socket.end(
    rawResponseHead(status, reason, rendered, transportHeaders(socket)) + (method === 'HEAD' ? '' : rendered.body),
  );
}
