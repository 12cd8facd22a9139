import type { AuthRequest } from './request.ts';

const BYPASS_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The socket's peer address. Never a header: X-Forwarded-For and friends are client-controlled. */
export function socketAddress(ctx: AuthRequest): string {
  return ctx.req.socket.remoteAddress ?? '';
}

/** The peer address with IPv4-mapped IPv6 unwrapped (`::ffff:1.2.3.4` becomes `1.2.3.4`). */
export function remoteIp(ctx: AuthRequest): string {
  const address = socketAddress(ctx);
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** SPEC localhost bypass: only these exact socket addresses qualify (127.0.0.2 is loopback but not localhost). */
export function isLocalhostSocket(ctx: AuthRequest): boolean {
  return BYPASS_ADDRESSES.has(socketAddress(ctx));
}
