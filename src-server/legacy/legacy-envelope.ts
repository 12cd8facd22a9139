import type { Context } from 'koa';
import { renderError } from '../wire/envelope.ts';
import { HttpError } from '../wire/errors.ts';
import { sendEnvelope } from '../http/respond.ts';

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
