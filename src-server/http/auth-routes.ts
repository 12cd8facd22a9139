import type Router from '@koa/router';
import type { Context } from 'koa';
import { renderEnvelope } from '../wire/envelope.ts';
import { tooManyRequests, unauthorized, unprocessable } from '../wire/errors.ts';
import { authenticate, authorize, pipeline, principalOf } from './pipeline.ts';
import { sendEnvelope } from './respond.ts';
import { FLAG_MESSAGE, flagValue } from '../resource-kit/fields.ts';
import { authDeclaration } from '../resources/auth/declaration.ts';
import type { ActionResult } from '../wire/envelope.ts';
import type { Services } from '../services.ts';
import { SESSION_COOKIE } from '../auth/authenticate.ts';
import { clearRefreshCookie, clearSessionCookie, REFRESH_COOKIE, setRefreshCookie } from './cookies.ts';
import { credentialRejected, presentedCredential } from '../auth/credentials.ts';
import { API_KEY_PATTERN } from '../auth/api-key-store.ts';
import { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from '../auth/jwt.ts';
import {
  endWebSession,
  liveSessionRole,
  revokeByRefreshToken,
  revokeSession,
  revokeUserSessions,
  rotateRefreshToken,
  startLoginSession,
} from '../auth/login-sessions.ts';
import { passwordProblems, verifyPassword } from '../auth/passwords.ts';
import type { Principal } from '../auth/principal.ts';
import { localhostBypass } from '../auth/localhost-bypass.ts';
import { remoteIp } from '../auth/remote-address.ts';
import { loginWithPassword } from '../auth/password-login.ts';
import { adminPasswordSet, ADMIN_LOGIN, findUser, setUserPassword, type UserRecord } from '../auth/users.ts';

const V3 = '/pbxcore/api/v3/auth\\:';
const PROCESSOR = authDeclaration.processor!;

function send(ctx: Context, fn: string, result: ActionResult): void {
  sendEnvelope(ctx, renderEnvelope(result, { function: fn, processor: PROCESSOR, pid: process.pid }));
}

function bodyOf(ctx: Context): Record<string, unknown> {
  const body = ctx.request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

async function tokenAnswer(
  services: Services,
  ctx: Context,
  fn: string,
  issued: { sessionId: string; login: string; role: UserRecord['role']; remember: boolean; refreshToken: string },
) {
  const accessToken = await signAccessToken(
    services.auth.jwtSecret,
    { sub: issued.login, role: issued.role, sid: issued.sessionId },
    services.clock.now(),
  );
  setRefreshCookie(ctx, issued.refreshToken, issued.remember);
  ctx.set('Cache-Control', 'no-store');
  send(ctx, fn, {
    result: true,
    data: { accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS, login: issued.login },
  });
}

/** The current user of a JWT or session principal; undefined for localhost and API keys. */
function userOf(principal: Principal): { login: string; sessionId: string } | undefined {
  if (principal.channel === 'session' || (principal.channel === 'bearer_token' && principal.kind === 'jwt')) {
    return { login: principal.userName, sessionId: principal.sessionId };
  }
  return undefined;
}

/**
 * Logout with only `Authorization: Bearer <JWT>` (a script, the desktop app) revokes that token's
 * login session, so the token (and any other of the session, and its refresh family) is refused
 * from the next request. Only a token this server signed and that has not expired counts: a forged
 * one cannot log anybody out. API keys are not sessions: logout leaves them as they are.
 */
async function revokePresentedToken(services: Services, ctx: Context, now: number): Promise<boolean> {
  const credential = presentedCredential(ctx);
  if (!credential?.token || credential.header !== 'authorization' || API_KEY_PATTERN.test(credential.token))
    return false;
  const outcome = await verifyAccessToken(services.auth.jwtSecret, credential.token, now);
  if (!outcome.ok || !liveSessionRole(services.db, outcome.claims.sid)) return false;
  revokeSession(services.db, outcome.claims.sid, 'logout', now);
  return true;
}

/** auth:login, auth:refresh, auth:logout, auth:status and auth:setPassword on the web thread. */
export function registerAuthRoutes(router: Router, services: Services): void {
  router.post(`${V3}login`, async (ctx) => {
    const body = bodyOf(ctx);
    // Checked before the password: a malformed request is refused whatever its credentials.
    const remember = body.rememberMe === undefined ? false : flagValue(body.rememberMe);
    if (remember === undefined) throw unprocessable([`rememberMe: ${FLAG_MESSAGE}`]);
    const user = await loginWithPassword(services, ctx, body.login, body.password);
    await tokenAnswer(services, ctx, 'login', startLoginSession(services.db, user, remember, services.clock.now()));
  });

  router.post(`${V3}refresh`, async (ctx) => {
    const token = ctx.cookies.get(REFRESH_COOKIE);
    if (!token) throw unauthorized('No refresh token: log in again.');
    const outcome = rotateRefreshToken(services.db, token, services.clock.now());
    if (!outcome.ok) {
      clearRefreshCookie(ctx);
      throw credentialRejected(
        services,
        ctx,
        outcome.reason,
        `The refresh token is not valid (${outcome.reason}); log in again.`,
      );
    }
    await tokenAnswer(services, ctx, 'refresh', outcome);
  });

  router.post(`${V3}logout`, async (ctx) => {
    const now = services.clock.now();
    const refresh = ctx.cookies.get(REFRESH_COOKIE);
    const byCookie = refresh ? revokeByRefreshToken(services.db, refresh, now) : false;
    const byBearer = await revokePresentedToken(services, ctx, now);
    const revoked = byCookie || byBearer;
    const session = ctx.cookies.get(SESSION_COOKIE);
    if (session) endWebSession(services.db, session);
    clearRefreshCookie(ctx);
    if (session) clearSessionCookie(ctx, SESSION_COOKIE);
    send(ctx, 'logout', { result: true, data: { loggedOut: true, revoked } });
  });

  router.get(`${V3}status`, (ctx) => {
    send(ctx, 'status', {
      result: true,
      data: {
        adminPasswordSet: adminPasswordSet(services.db),
        viaLocalhost: localhostBypass(ctx, services.config.trustedHosts).applies,
      },
    });
  });

  const authorizeAdmin = authorize(() => ({ declaration: authDeclaration, level: 'ADMIN' }));
  router.post(`${V3}setPassword`, pipeline(authenticate(services), authorizeAdmin), async (ctx) => {
    const principal = principalOf(ctx);
    const body = bodyOf(ctx);
    const caller = userOf(principal);
    const login = typeof body.login === 'string' && body.login !== '' ? body.login : (caller?.login ?? ADMIN_LOGIN);
    const target = findUser(services.db, login);
    if (!target && login !== ADMIN_LOGIN)
      return send(ctx, 'setPassword', {
        result: false,
        httpCode: 404,
        messages: { error: [`There is no user "${login}".`] },
      });
    const problems = passwordProblems(body.password);
    if (problems.length) throw unprocessable(problems);
    // Only an operator on this machine may skip the current password (the console over loopback).
    if (target && principal.channel !== 'localhost') {
      const ip = remoteIp(ctx);
      // Guessing currentPassword is guessing a login: the same limiter, the same 429.
      const retryAfter = services.auth.loginLimiter.retryAfterSeconds(ip, login);
      if (retryAfter > 0) {
        services.bus.emit({ type: 'security-failure', category: 'http', ip, reason: 'setPassword while rate-limited' });
        throw tooManyRequests(`Too many failed password checks from ${ip}; retry in ${retryAfter} s.`, retryAfter);
      }
      const current = body.currentPassword;
      if (typeof current !== 'string' || current === '')
        throw unprocessable(['currentPassword is required to change an existing password.']);
      if (!(await verifyPassword(current, target.passwordHash))) {
        services.auth.loginLimiter.recordFailure(ip, login);
        services.bus.emit({ type: 'security-failure', category: 'http', ip, reason: 'wrong current password' });
        throw unprocessable(['currentPassword is not correct.']);
      }
      services.auth.loginLimiter.recordSuccess(ip, login);
    }
    const now = services.clock.now();
    await setUserPassword(services.db, login, body.password as string, target?.role ?? 'admin', now);
    revokeUserSessions(services.db, login, now, caller?.login === login ? caller.sessionId : undefined);
    services.logger.info({ login, via: principal.channel }, 'password set');
    send(ctx, 'setPassword', { result: true, data: { login, passwordSet: true } });
  });
}
