import getRawBody from 'raw-body';
import type { Context, Next } from 'koa';
import { badRequest, HttpError, payloadTooLarge, unsupportedMediaType } from '../wire/errors.ts';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Deepest nesting of arrays and objects a JSON body may have. Every body of this API is a few
 * levels deep; a body nested thousands deep cannot be copied to a worker (the structured clone
 * recurses until the stack runs out), so it is refused here, before it is queued.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `max`. A linear scan of the text that
 * skips string contents, so it costs nothing like the parse and runs before it.
 */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

declare module 'koa' {
  interface Request {
    /** Parsed body: an object for JSON and forms, undefined when there was none. */
    body?: unknown;
  }
}

/**
 * Reads and parses JSON or form bodies with a size and a depth limit. Every failure is a clear 4xx:
 * over the size limit 413, wrong type 415, invalid UTF-8, malformed JSON or JSON nested deeper than
 * MAX_BODY_DEPTH 400.
 * raw-body does the limit and stream handling; the parsing rules are ours. With `acceptText`,
 * a text/plain or text/csv body is taken as `{content: <text>}` (a ban list posted as a file).
 */
export function bodyParser(limitBytes: number, acceptText = false) {
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
      if (jsonNestsDeeperThan(text, MAX_BODY_DEPTH)) {
        throw badRequest(`The JSON body nests arrays and objects deeper than the limit of ${MAX_BODY_DEPTH} levels.`);
      }
      try {
        ctx.request.body = JSON.parse(text);
      } catch {
        throw badRequest('Malformed JSON in the request body.');
      }
    } else if (acceptText && (type === 'text/plain' || type === 'text/csv')) {
      ctx.request.body = { content: text };
    } else if (type === 'application/x-www-form-urlencoded') {
      ctx.request.body = Object.fromEntries(new URLSearchParams(text));
    } else {
      throw unsupportedMediaType(type || '(none)');
    }
    return next();
  };
}
