import type Router from '@koa/router';
import type { Context } from 'koa';
import { renderEnvelope } from '../http/envelope.ts';
import { tooManyRequests, unauthorized, unprocessable } from '../http/errors.ts';
import { sendEnvelope } from '../http/respond.ts';
import { toBoolean } from '../resources/fields.ts';
import { authDeclaration } from '../resources/auth/declaration.ts';
import type { ActionResult } from '../http/envelope.ts';
import type { Services } from '../services.ts';
import { authenticate, SESSION_COOKIE } from './authenticate.ts';
import { authorize } from './authorize.ts';
import { clearRefreshCookie, clearSessionCookie, REFRESH_COOKIE, setRefreshCookie } from './cookies.ts';
import { credentialRejected } from './credentials.ts';
import { ACCESS_TOKEN_SECONDS, signAccessToken } from './jwt.ts';
import { endWebSession, revokeByRefreshToken, revokeUserSessions, rotateRefreshToken, startLoginSession } from './login-sessions.ts';
import { MAX_PASSWORD_LENGTH, passwordProblems, verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import { isLocalhostSocket, remoteIp } from './remote-address.ts';
import { authRuntime } from './runtime.ts';
import { adminPasswordSet, ADMIN_LOGIN, checkCredentials, findUser, NO_PASSWORD_MESSAGE, setUserPassword, type UserRecord } from './users.ts';

const V3 = '/pbxcore/api/v3/auth\\:';
const PROCESSOR = authDeclaration.processor!;

function send(ctx: Context, fn: string, result: ActionResult): void {
  sendEnvelope(ctx, renderEnvelope(result, { function: fn, processor: PROCESSOR, pid: process.pid }));
}

function bodyOf(ctx: Context): Record<string, unknown> {
  const body = ctx.request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/**
 * Checks login and password with the per-IP limiter: 429 while limited, 401 on a bad password or
 * before any admin password exists. Every failure is reported to the intrusion-ban component.
 */
export async function loginWithPassword(services: Services, ctx: Context, login: unknown, password: unknown): Promise<UserRecord> {
  const { loginLimiter } = authRuntime(services);
  const ip = remoteIp(ctx);
  const retryAfter = loginLimiter.retryAfterSeconds(ip);
  if (retryAfter > 0) throw tooManyRequests(`Too many failed logins from ${ip}; retry in ${retryAfter} s.`, retryAfter);
  const missing = [typeof login !== 'string' || login === '' ? 'login is required.' : '', typeof password !== 'string' || password === '' ? 'password is required.' : ''].filter(Boolean);
  if (missing.length) throw unprocessable(missing);
  if (!adminPasswordSet(services.db)) {
    loginLimiter.recordFailure(ip);
    throw credentialRejected(services, ctx, 'login before an admin password was set', NO_PASSWORD_MESSAGE);
  }
  // An absurd length is a failed guess, not a reason to spend scrypt time on a megabyte.
  const user = (password as string).length > MAX_PASSWORD_LENGTH ? undefined : await checkCredentials(services.db, login as string, password as string);
  if (!user) {
    loginLimiter.recordFailure(ip);
    throw credentialRejected(services, ctx, 'failed login', 'Invalid login or password.');
  }
  loginLimiter.recordSuccess(ip);
  return user;
}

async function tokenAnswer(services: Services, ctx: Context, fn: string, issued: { sessionId: string; login: string; role: UserRecord['role']; remember: boolean; refreshToken: string }) {
  const accessToken = await signAccessToken(authRuntime(services).jwtSecret, { sub: issued.login, role: issued.role, sid: issued.sessionId }, services.clock.now());
  setRefreshCookie(ctx, issued.refreshToken, issued.remember);
  ctx.set('Cache-Control', 'no-store');
  send(ctx, fn, { result: true, data: { accessToken, tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_SECONDS, login: issued.login } });
}

/** The current user of a JWT or session principal; undefined for localhost and API keys. */
function userOf(principal: Principal): { login: string; sessionId: string } | undefined {
  if (principal.channel === 'session' || (principal.channel === 'bearer_token' && principal.kind === 'jwt')) {
    return { login: principal.userName, sessionId: principal.sessionId };
  }
  return undefined;
}

/** auth:login, auth:refresh, auth:logout, auth:status and auth:setPassword on the web thread. */
export function loginRoutes(services: Services, router: Router): void {
  router.post(`${V3}login`, async (ctx) => {
    const body = bodyOf(ctx);
    const user = await loginWithPassword(services, ctx, body.login, body.password);
    const remember = toBoolean(body.rememberMe) === true;
    await tokenAnswer(services, ctx, 'login', startLoginSession(services.db, user, remember, services.clock.now()));
  });

  router.post(`${V3}refresh`, async (ctx) => {
    const token = ctx.cookies.get(REFRESH_COOKIE);
    if (!token) throw unauthorized('No refresh token: log in again.');
    const outcome = rotateRefreshToken(services.db, token, services.clock.now());
    if (!outcome.ok) {
      clearRefreshCookie(ctx);
      throw credentialRejected(services, ctx, outcome.reason, `The refresh token is not valid (${outcome.reason}); log in again.`);
    }
    await tokenAnswer(services, ctx, 'refresh', outcome);
  });

  router.post(`${V3}logout`, (ctx) => {
    const now = services.clock.now();
    const refresh = ctx.cookies.get(REFRESH_COOKIE);
    const revoked = refresh ? revokeByRefreshToken(services.db, refresh, now) : false;
    const session = ctx.cookies.get(SESSION_COOKIE);
    if (session) endWebSession(services.db, session);
    clearRefreshCookie(ctx);
    if (session) clearSessionCookie(ctx, SESSION_COOKIE);
    send(ctx, 'logout', { result: true, data: { loggedOut: true, revoked } });
  });

  router.get(`${V3}status`, (ctx) => {
    send(ctx, 'status', { result: true, data: { adminPasswordSet: adminPasswordSet(services.db), viaLocalhost: isLocalhostSocket(ctx) } });
  });

  router.post(`${V3}setPassword`, async (ctx) => {
    const principal = await authenticate(services, ctx, { isPublic: false });
    authorize(principal, { declaration: authDeclaration, level: 'ADMIN', path: ctx.path, method: ctx.method });
    const body = bodyOf(ctx);
    const caller = userOf(principal);
    const login = typeof body.login === 'string' && body.login !== '' ? body.login : (caller?.login ?? ADMIN_LOGIN);
    const target = findUser(services.db, login);
    if (!target && login !== ADMIN_LOGIN) return send(ctx, 'setPassword', { result: false, httpCode: 404, messages: { error: [`There is no user "${login}".`] } });
    const problems = passwordProblems(body.password);
    if (problems.length) throw unprocessable(problems);
    // Only an operator on this machine may skip the current password (the console over loopback).
    if (target && principal.channel !== 'localhost') {
      const current = body.currentPassword;
      if (typeof current !== 'string' || current === '') throw unprocessable(['currentPassword is required to change an existing password.']);
      if (!(await verifyPassword(current, target.passwordHash))) {
        authRuntime(services).loginLimiter.recordFailure(remoteIp(ctx));
        services.bus.emit({ type: 'security-failure', category: 'http', ip: remoteIp(ctx), reason: 'wrong current password' });
        throw unprocessable(['currentPassword is not correct.']);
      }
    }
    const now = services.clock.now();
    await setUserPassword(services.db, login, body.password as string, target?.role ?? 'admin', now);
    revokeUserSessions(services.db, login, now, caller?.login === login ? caller.sessionId : undefined);
    services.logger.info({ login, via: principal.channel }, 'password set');
    send(ctx, 'setPassword', { result: true, data: { login, passwordSet: true } });
  });
}
