import type { Context } from 'koa';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { RenderedEnvelope } from '../wire/envelope.ts';

const gunzipAsync = promisify(gunzip);

/** Sends a rendered envelope with its status and E-Tag header (SPEC: every answer carries one). */
export function sendEnvelope(ctx: Context, rendered: RenderedEnvelope, headers: Record<string, string> = {}): void {
  ctx.status = rendered.status;
  ctx.set(headers);
  ctx.set('E-Tag', `"${rendered.hash}"`);
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = rendered.body;
}

/** Sends a worker's gzip as-is when the client accepts it; otherwise inflates it off the event loop. */
export async function sendCompressed(ctx: Context, status: number, hash: string, gzip: Uint8Array): Promise<void> {
  ctx.status = status;
  ctx.set('E-Tag', `"${hash}"`);
  ctx.type = 'application/json; charset=utf-8';
  ctx.vary('Accept-Encoding');
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = Buffer.from(gzip.buffer, gzip.byteOffset, gzip.byteLength);
  } else {
    ctx.body = await gunzipAsync(gzip);
  }
}
