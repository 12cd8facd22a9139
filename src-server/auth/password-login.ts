import { tooManyRequests, unprocessable } from '../wire/errors.ts';
import { credentialRejected, reportRejection } from './credentials.ts';
import { MAX_PASSWORD_LENGTH } from './passwords.ts';
import { remoteIp } from './remote-address.ts';
import { adminPasswordSet, checkCredentials, NO_PASSWORD_MESSAGE, type UserRecord } from './users.ts';
import type { AuthDeps, AuthRequest } from './request.ts';

/**
 * Checks login and password with the limiter (per address and account, and per address): 429 while limited, 401 on a bad password or
 * before any admin password exists. Every failure, rate-limited ones included, is reported to the
 * intrusion-ban component.
 */
export async function loginWithPassword(
  services: AuthDeps,
  ctx: AuthRequest,
  login: unknown,
  password: unknown,
): Promise<UserRecord> {
  const { loginLimiter } = services.auth;
  const ip = remoteIp(ctx);
  const retryAfter = loginLimiter.retryAfterSeconds(ip, login);
  if (retryAfter > 0) {
    // Still a failed attempt for the intrusion-ban component: a client that keeps guessing gets banned.
    services.bus.emit({ type: 'security-failure', category: 'http', ip, reason: 'login while rate-limited' });
    reportRejection(services, ctx, {
      kind: 'failed-login',
      status: 429,
      reason: 'login while rate-limited',
      ...loginName(login),
    });
    throw tooManyRequests(`Too many failed logins from ${ip}; retry in ${retryAfter} s.`, retryAfter);
  }
  const missing = [
    typeof login !== 'string' || login === '' ? 'login is required.' : '',
    typeof password !== 'string' || password === '' ? 'password is required.' : '',
  ].filter(Boolean);
  if (missing.length) throw unprocessable(missing);
  if (!adminPasswordSet(services.db)) {
    loginLimiter.recordFailure(ip, login);
    throw credentialRejected(services, ctx, 'login before an admin password was set', NO_PASSWORD_MESSAGE, {
      kind: 'failed-login',
      ...loginName(login),
    });
  }
  // An absurd length is a failed guess, not a reason to spend scrypt time on a megabyte.
  const user =
    (password as string).length > MAX_PASSWORD_LENGTH
      ? undefined
      : await checkCredentials(services.db, login as string, password as string);
  if (!user) {
    loginLimiter.recordFailure(ip, login);
    throw credentialRejected(services, ctx, 'failed login', 'Invalid login or password.', {
      kind: 'failed-login',
      ...loginName(login),
    });
  }
  loginLimiter.recordSuccess(ip, login);
  return user;
}

/** The login name tried, for the audit log (bounded; never the password). */
function loginName(login: unknown): { login?: string } {
  return typeof login === 'string' && login !== '' ? { login: login.slice(0, 100) } : {};
}
