import type { Context, Next } from 'koa';
import { sendEnvelope } from '../http/respond.ts';
import { renderError } from '../wire/envelope.ts';
import { HttpError } from '../wire/errors.ts';

/** SPEC: legacy endpoints carry `jsonapi: {version}` next to the standard envelope members. */
export const LEGACY_EXTRA = { jsonapi: { version: '1.0' } };

/** First step of a legacy route: HttpErrors raised by the steps after it (401, 400...) are answered in the legacy envelope too. */
export async function legacyErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    sendEnvelope(ctx, renderError(error.status, error.messages, LEGACY_EXTRA), error.headers);
  }
}
