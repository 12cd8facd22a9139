import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { packageVersion } from '../package-info.ts';

/** `name/version`, exactly one slash: the LAPI refuses a machine login with any other User-Agent. */
export const LAPI_USER_AGENT = `pbx-console/${packageVersion}`;

/** Answers over this size are dropped (issue 23: over 64 MB is "huge"). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** A request (connect, send, whole answer) that takes longer is dropped. */
export const ANSWER_TIMEOUT_MS = 30_000;

/** Why a LAPI request failed, as the console shows it. */
export type LapiFailureKind = 'unreachable' | 'timeout' | 'too-large' | 'unauthorized' | 'http-error';

/** A failed LAPI request, with a reason fit for the log and the console. */
export class LapiError extends Error {
  constructor(
    readonly kind: LapiFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface LapiAnswer {
  status: number;
  body: Buffer;
}

export interface LapiRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** The LAPI base URL (settings), e.g. http://127.0.0.1:8080/ */
  baseUrl: string;
  /** Path and query under the base, e.g. `v1/alerts`. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  maxBytes?: number;
  timeoutMs?: number;
}

/** `base` + `path`, whatever slashes the operator typed. */
export function lapiUrl(baseUrl: string, path: string): URL {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return new URL(path.replace(/^\/+/, ''), base);
}

/** Node's socket error codes, in the words a technician reads in the link's status. */
const SOCKET_WORDS: Record<string, string> = {
  ECONNREFUSED: 'nothing answers on that address and port (is CrowdSec running, and listening there?)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved just now (DNS)',
  EHOSTUNREACH: 'there is no route to that address',
  ENETUNREACH: 'there is no route to that network',
  ECONNRESET: 'the connection was cut',
  EPIPE: 'the connection was cut',
  ETIMEDOUT: 'the connection timed out',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its HTTPS certificate is self-signed and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its HTTPS certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its HTTPS certificate is not trusted',
  CERT_HAS_EXPIRED: 'its HTTPS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its HTTPS certificate is for another name',
};

/** A socket error in words (its code, when Node gives a known one), else its message. */
const describe = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && SOCKET_WORDS[code]) return SOCKET_WORDS[code];
  return error instanceof Error ? error.message : String(error);
};

/**
 * One request to the LAPI with hard limits: the whole exchange within `timeoutMs` and the answer
 * within `maxBytes` (counted as it arrives, so a huge answer is cut off, never buffered whole).
 * Resolves with any HTTP status except 401/403 (LapiError `unauthorized`) and 5xx (`http-error`).
 */
export function lapiRequest(options: LapiRequest): Promise<LapiAnswer> {
  const {
    method,
    baseUrl,
    path,
    headers = {},
    body,
    maxBytes = MAX_ANSWER_BYTES,
    timeoutMs = ANSWER_TIMEOUT_MS,
  } = options;
  const url = lapiUrl(baseUrl, path);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<LapiAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (error: LapiError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new LapiError('timeout', `The LAPI did not answer ${method} ${url.pathname} within ${timeoutMs / 1000} s.`),
        ),
      timeoutMs,
    );
    const req = send(
      url,
      {
        method,
        headers: {
          'User-Agent': LAPI_USER_AGENT,
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
          ...headers,
        },
      },
      (res: IncomingMessage) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          fail(
            new LapiError(
              'too-large',
              `The LAPI answer to ${method} ${url.pathname} is ${declared} bytes, over the ${maxBytes}-byte limit.`,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes)
            fail(
              new LapiError(
                'too-large',
                `The LAPI answer to ${method} ${url.pathname} passed the ${maxBytes}-byte limit.`,
              ),
            );
          else chunks.push(chunk);
        });
        res.on('error', (error) => fail(new LapiError('unreachable', `The LAPI answer was cut: ${describe(error)}.`)));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const answer = { status, body: Buffer.concat(chunks) };
          if (status === 401 || status === 403) {
            reject(
              new LapiError(
                'unauthorized',
                `The LAPI refused the credentials (${status}${messageOf(answer.body)}).`,
                status,
              ),
            );
          } else if (status >= 500) {
            reject(
              new LapiError(
                'http-error',
                `The LAPI answered ${status} to ${method} ${url.pathname}${messageOf(answer.body)}.`,
                status,
              ),
            );
          } else resolve(answer);
        });
      },
    );
    req.on('error', (error) =>
      fail(new LapiError('unreachable', `The LAPI at ${url.origin} is unreachable: ${describe(error)}.`)),
    );
    req.end(payload);
  });
}

/** The LAPI's `{"message": ...}` as `: message`, when it sent one (at most 200 characters). */
export function messageOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.subarray(0, 4096).toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' ? `: ${parsed.message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}
