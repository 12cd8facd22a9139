import type { SendOutcome } from './channel-config.ts';
import { receiverSaid } from './text.ts';

/** At most this much of an answer is read (for the failure message); the rest is never downloaded. */
const MAX_ANSWER_BYTES = 1024;

async function answerStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // A huge (or endless) body stops here: the connection is dropped, not drained.
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}

/** What a failed request says, without the URL (whose query could carry a token). */
export function errorText(error: unknown): string {
  const err = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  } | null;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'no answer in time';
  const cause = err?.cause;
  return receiverSaid(cause?.code ?? err?.code ?? cause?.message ?? err?.message ?? String(error));
}

/**
 * One bounded POST: `timeoutMs` for the whole exchange, at most 1 KB of the answer read, redirects
 * not followed (a signed body or a token must not land on another host). A 2xx is a delivery.
 */
export async function boundedPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    const ok = response.status >= 200 && response.status < 300;
    if (ok) {
      await response.body?.cancel().catch(() => undefined);
      return { ok, status: response.status, message: `delivered (HTTP ${response.status})` };
    }
    const said = await answerStart(response);
    return { ok, status: response.status, message: receiverSaid(`HTTP ${response.status}${said ? `: ${said}` : ''}`) };
  } catch (error) {
    return { ok: false, status: 0, message: errorText(error) };
  }
}
