import type { Context, Next } from 'koa';
import type { TLSSocket } from 'node:tls';

/**
 * One Content-Security-Policy for the console and the API. No inline or evaluated script, nothing
 * from elsewhere, and `frame-ancestors 'none'`: no page may frame the console, where the localhost
 * bypass would lend it full rights (clickjacking). Inline styles stay allowed: Mantine writes its
 * CSS variables in a <style> element and style attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every answer carries, Koa's and those written straight on a socket alike. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** A year, without includeSubDomains: the HTTPS listener speaks only for its own host name. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/**
 * Sets the security headers before anything else runs, so errors, streams and static files carry
 * them too. HSTS only over TLS: on plain HTTP it is meaningless, and browsers ignore it there.
 */
export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  ctx.set(SECURITY_HEADERS);
  if ((ctx.req.socket as Partial<TLSSocket>).encrypted === true)
    ctx.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  await next();
}
