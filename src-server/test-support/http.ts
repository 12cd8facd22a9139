import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary shapes
}

export interface TestRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings and buffers as they are. */
  body?: unknown;
  /** Source address of the client socket: 127.0.0.2 makes a remote client for the localhost bypass. */
  localAddress?: string;
  rejectUnauthorized?: boolean;
}

/** An answer as it came off the socket: the body's bytes undecoded. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A real HTTP request over a real socket, with control of the source address; the body's bytes back as they came. */
export function sendRequest(url: string, options: TestRequestOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body))
      payload = Buffer.from(options.body as string);
    else {
      payload = Buffer.from(JSON.stringify(options.body));
      headers['content-type'] ??= 'application/json';
    }
    headers['content-length'] = String(payload.length);
  }
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        localAddress: options.localAddress,
        rejectUnauthorized: options.rejectUnauthorized ?? false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** A real HTTP request over a real socket, the answer decoded as text (and JSON when it is). */
export async function request(url: string, options: TestRequestOptions = {}): Promise<TestResponse> {
  const { status, headers, body } = await sendRequest(url, options);
  // Decoded like any real client that asked for gzip would (the raw bytes stay in tests that need them).
  const text = (headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

/** Raw bytes on a loopback socket (for requests a client library will not send); the raw answer back as text. */
export function rawRequest(port: number, payload: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(payload));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}
