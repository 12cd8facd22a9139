import type { Context } from 'koa';
import { unauthorized } from '../http/errors.ts';
import type { Services } from '../services.ts';
import type { Principal } from './principal.ts';
import { isLocalhostSocket } from './remote-address.ts';

/** True when the request presents any credential at all (even a malformed one such as `Bearer None`). */
export function presentsCredential(ctx: Context): boolean {
  return ctx.get('authorization') !== '' || ctx.get('x-api-key') !== '';
}

/**
 * The SPEC's evaluation order: (1) public endpoint, (2) Bearer credential, (3) localhost bypass.
 * Throws 401 when none applies.
 */
export async function authenticate(_services: Services, ctx: Context, options: { isPublic: boolean }): Promise<Principal> {
  if (options.isPublic) return { channel: 'public' };
  if (presentsCredential(ctx)) throw unauthorized('Invalid or unsupported credential.');
  if (isLocalhostSocket(ctx)) return { channel: 'localhost' };
  throw unauthorized();
}
