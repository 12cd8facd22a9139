import type { Context, Next } from 'koa';
import { renderFamilyError } from '../http/family-errors.ts';
import { sendEnvelope } from '../http/respond.ts';
import { HttpError } from '../wire/errors.ts';

/** First step of a legacy route: HttpErrors raised by the steps after it (401, 400...) are answered in the legacy envelope too. */
export async function legacyErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    sendEnvelope(ctx, renderFamilyError('legacy', error.status, error.messages), error.headers);
  }
}
