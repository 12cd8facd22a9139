import getRawBody from 'raw-body';
import type { Context, Next } from 'koa';
import { badRequest, HttpError, payloadTooLarge, unsupportedMediaType } from './errors.ts';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

declare module 'koa' {
  interface Request {
    /** Parsed body: an object for JSON and forms, undefined when there was none. */
    body?: unknown;
  }
}

/**
 * Reads and parses JSON or form bodies with a size limit. Every failure is a clear 4xx:
 * over the limit 413, wrong type 415, invalid UTF-8 or malformed JSON 400.
 * raw-body does the limit and stream handling; the parsing rules are ours.
 */
export function bodyParser(limitBytes: number) {
  return async function parseBody(ctx: Context, next: Next): Promise<void> {
    if (!METHODS_WITH_BODY.has(ctx.method)) return next();
    const declared = ctx.request.length;
    if (declared !== undefined && declared > limitBytes) throw payloadTooLarge(limitBytes);
    let raw: Buffer;
    try {
      raw = await getRawBody(ctx.req, { limit: limitBytes, length: declared });
    } catch (error) {
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') throw payloadTooLarge(limitBytes);
      if (type === 'request.aborted') throw new HttpError(400, ['The request body was aborted.']);
      throw badRequest('The request body could not be read.');
    }
    if (raw.length === 0) {
      ctx.request.body = undefined;
      return next();
    }
    let text: string;
    try {
      text = utf8.decode(raw);
    } catch {
      throw badRequest('The request body is not valid UTF-8.');
    }
    const type = (ctx.request.type || '').toLowerCase();
    if (type === 'application/json' || type.endsWith('+json')) {
      try {
        ctx.request.body = JSON.parse(text);
      } catch {
        throw badRequest('Malformed JSON in the request body.');
      }
    } else if (type === 'application/x-www-form-urlencoded') {
      ctx.request.body = Object.fromEntries(new URLSearchParams(text));
    } else {
      throw unsupportedMediaType(type || '(none)');
    }
    return next();
  };
}
