/**
 * Named errors of the API: each carries an HTTP status, a stable `id` (for logs and tests; never
 * rendered) and the envelope's messages. Koa-free, so the domain and the workers can throw them;
 * the HTTP layer's one error renderer turns them into the SPEC's envelope. Anything else becomes a
 * logged 500.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly headers: Record<string, string> = {},
    /** Stable identifier of the error kind, e.g. `not_found`. */
    readonly id: string = idOfStatus(status),
  ) {
    super(messages.join('; '));
    this.name = 'HttpError';
  }
}

const STATUS_IDS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'too_many_requests',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

function idOfStatus(status: number): string {
  return STATUS_IDS[status] ?? `http_${status}`;
}

export const badRequest = (message: string) => new HttpError(400, [message]);
export const unauthorized = (message = 'Authentication required: send a valid Bearer token or API key.') =>
  new HttpError(401, [message]);
export const forbidden = (message = 'Access denied.') => new HttpError(403, [message]);
export const notFound = (message = 'Not found.') => new HttpError(404, [message]);
export const methodNotAllowed = (message: string, allow: string[]) =>
  new HttpError(405, [message], allow.length ? { Allow: allow.join(', ') } : {});
export const conflict = (message: string) => new HttpError(409, [message]);
export const payloadTooLarge = (limit: number) =>
  new HttpError(413, [`Request body is larger than the limit of ${limit} bytes.`]);
export const uriTooLong = (limit: number) => new HttpError(414, [`Request path is longer than ${limit} characters.`]);
export const unsupportedMediaType = (type: string) =>
  new HttpError(415, [
    `Content type "${type}" is not supported; send application/json or application/x-www-form-urlencoded.`,
  ]);
export const unprocessable = (errors: string[]) => new HttpError(422, errors);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, [message], { 'Retry-After': String(retryAfterSeconds) });
export const serviceUnavailable = (
  message = 'The service is temporarily unavailable, please retry later.',
  retryAfterSeconds = 1,
) => new HttpError(503, [message], { 'Retry-After': String(retryAfterSeconds) });
