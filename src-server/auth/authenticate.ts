import { forbidden, unauthorized } from '../wire/errors.ts';
import { resolveApiKey } from './api-key-auth.ts';
import { API_KEY_PATTERN } from './api-key-store.ts';
import { credentialRejected, presentedCredential, type PresentedCredential } from './credentials.ts';
import { verifyAccessToken } from './jwt.ts';
import { findWebSession, liveSessionRole } from './login-sessions.ts';
import type { Principal, SessionContext } from './principal.ts';
import { localhostBypass } from './localhost-bypass.ts';
import { remoteIp } from './remote-address.ts';
import type { AuthDeps, AuthRequest } from './request.ts';

/** Name of the web-interface session cookie set by /admin-cabinet/session/start. */
export const SESSION_COOKIE = 'pbx_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The SPEC's evaluation order: (1) public endpoint (credentials ignored), (2) Bearer credential
 * (JWT or API key, `X-Api-Key` too; any credential presented is validated, from localhost too),
 * (3) the web-interface session cookie, (4) the localhost bypass (socket, Host and, for writes,
 * Origin and Sec-Fetch-Site: localhost-bypass.ts). Throws 401 when none applies.
 */
export async function authenticate(
  services: AuthDeps,
  ctx: AuthRequest,
  options: { isPublic: boolean },
): Promise<Principal> {
  if (options.isPublic) return { channel: 'public' };
  const credential = presentedCredential(ctx);
  if (credential) return bearerPrincipal(services, ctx, credential);
  const session = sessionPrincipal(services, ctx);
  if (session) return session;
  const bypass = localhostBypass(ctx, services.config.trustedHosts);
  if (bypass.applies) return { channel: 'localhost' };
  if (!bypass.reason) throw unauthorized();
  throw unauthorized(
    `Authentication required: the localhost bypass does not apply (${bypass.reason}); send a valid Bearer token or API key.`,
  );
}

function baseContext(
  ctx: AuthRequest,
  authType: SessionContext['auth_type'],
  tokenId: SessionContext['token_id'],
): SessionContext {
  return { auth_type: authType, token_id: tokenId, origin: ctx.get('origin') || 'api', remote_addr: remoteIp(ctx) };
}

async function bearerPrincipal(
  services: AuthDeps,
  ctx: AuthRequest,
  credential: PresentedCredential,
): Promise<Principal> {
  const token = credential.token;
  if (token === null) {
    throw credentialRejected(
      services,
      ctx,
      `malformed ${credential.header} header`,
      undefined,
      credential.header === 'x-api-key' ? { kind: 'rejected-key' } : undefined,
    );
  }
  if (API_KEY_PATTERN.test(token)) {
    const key = resolveApiKey(services, ctx, token);
    return {
      channel: 'bearer_token',
      kind: 'api_key',
      keyId: key.id,
      allowedPaths: key.allowedPaths,
      fullPermissions: key.fullPermissions,
      session: baseContext(ctx, 'api_key', key.id),
    };
  }
  if (credential.header === 'x-api-key')
    throw credentialRejected(services, ctx, 'malformed API key', undefined, { kind: 'rejected-key' });
  const outcome = await verifyAccessToken(services.auth.jwtSecret, token, services.clock.now());
  if (!outcome.ok) throw credentialRejected(services, ctx, outcome.reason);
  const { sub, sid } = outcome.claims;
  // The family is checked on every request so logout and reuse detection take effect at once.
  const role = liveSessionRole(services.db, sid);
  if (!role) throw credentialRejected(services, ctx, 'access token of a revoked session');
  return {
    channel: 'bearer_token',
    kind: 'jwt',
    userName: sub,
    role,
    sessionId: sid,
    session: { ...baseContext(ctx, 'jwt', sid), user_name: sub, role, session_id: sid },
  };
}

/** The web-interface session named by the cookie; unsafe verbs must carry X-Requested-With (CSRF guard). */
function sessionPrincipal(services: AuthDeps, ctx: AuthRequest): Principal | undefined {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return undefined;
  const session = findWebSession(services.db, token, services.clock.now());
  if (!session) return undefined;
  if (!SAFE_METHODS.has(ctx.method) && ctx.get('x-requested-with').toLowerCase() !== 'xmlhttprequest') {
    throw forbidden(
      'Requests authenticated by the session cookie that change data must send X-Requested-With: XMLHttpRequest.',
    );
  }
  return {
    channel: 'session',
    userName: session.login,
    role: session.role,
    sessionId: session.id,
    session: {
      ...baseContext(ctx, 'session', session.id),
      user_name: session.login,
      role: session.role,
      session_id: session.id,
    },
  };
}
