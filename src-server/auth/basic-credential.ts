import type { PresentedCredential } from './credentials.ts';
import type { AuthRequest } from './request.ts';

const BASIC = /^[ \t]*basic(?:[ \t]+(.*))?$/i;

/**
 * An API key sent as the HTTP Basic password (`https://feed:<key>@pbx/...`), for routers that can
 * put credentials in a URL but not set headers. The user name is ignored. A Basic header that is
 * not `base64(user:password)` counts as a malformed credential (`token: null`), so a bad one is
 * rejected and counted like any other. Undefined when the request has no Basic header.
 */
export function basicPasswordCredential(ctx: AuthRequest): PresentedCredential | undefined {
  const match = BASIC.exec(ctx.get('authorization'));
  if (!match) return undefined;
  const encoded = (match[1] ?? '').trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return { header: 'authorization', token: null };
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon === -1 ? '' : decoded.slice(colon + 1).trim();
  return { header: 'authorization', token: password || null };
}
