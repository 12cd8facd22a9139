import type { Context } from 'koa';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { renderEnvelope, renderError, type ActionResult, type Messages } from '../http/envelope.ts';
import { HttpError } from '../http/errors.ts';
import { sendEnvelope } from '../http/respond.ts';
import type { JobOutcome } from '../queue/request-queue.ts';
import type { Services } from '../services.ts';

const gunzipAsync = promisify(gunzip);

/** SPEC: legacy endpoints carry `jsonapi: {version}` next to the standard envelope members. */
export const LEGACY_EXTRA = { jsonapi: { version: '1.0' } };

/** Runs a legacy handler; HttpErrors it throws (401, 400...) are answered in the legacy envelope too. */
export async function withLegacyErrors(ctx: Context, handler: () => Promise<void>): Promise<void> {
  try {
    await handler();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    sendEnvelope(ctx, renderError(error.status, error.messages, LEGACY_EXTRA), error.headers);
  }
}

interface WorkerEnvelope {
  result: boolean;
  data: unknown;
  messages: Messages | [];
  function: string;
  processor: string;
  pid: number;
  httpCode?: number;
  pagination?: ActionResult['pagination'];
}

/**
 * Answers a worker's outcome in the legacy envelope. The worker renders the v3 envelope, so it is
 * re-rendered here with `jsonapi` (small bodies: the three sip endpoints).
 */
export async function sendLegacyOutcome(ctx: Context, services: Services, outcome: JobOutcome): Promise<void> {
  if (outcome.kind === 'expired') {
    sendEnvelope(ctx, renderError(504, ['The request waited in the queue longer than APIRequestTTL and was dropped; retry later.'], LEGACY_EXTRA));
    return;
  }
  if (outcome.kind === 'failed') {
    sendEnvelope(ctx, renderError(500, [`The request failed ${outcome.attempts} times and was parked as failed; the details are in the server log.`], LEGACY_EXTRA));
    return;
  }
  for (const event of outcome.events) services.bus.emit(event);
  const text = outcome.compressed ? (await gunzipAsync(outcome.body as Uint8Array)).toString('utf8') : (outcome.body as string);
  const v3 = JSON.parse(text) as WorkerEnvelope;
  const result: ActionResult = {
    result: v3.result,
    data: v3.data,
    messages: Array.isArray(v3.messages) ? undefined : v3.messages,
    ...(v3.httpCode !== undefined ? { httpCode: v3.httpCode } : {}),
    ...(v3.pagination ? { pagination: v3.pagination } : {}),
  };
  sendEnvelope(ctx, renderEnvelope(result, { function: v3.function, processor: v3.processor, pid: v3.pid }, LEGACY_EXTRA));
}
