import type { Context } from 'koa';
import { REFRESH_TOKEN_SECONDS } from '../auth/login-sessions.ts';

export const REFRESH_COOKIE = 'refreshToken';
/** The refresh cookie is only ever sent to the v3 API. */
export const REFRESH_COOKIE_PATH = '/pbxcore/api/v3';

/** httpOnly, SameSite=Strict, Secure over HTTPS; 30 days with rememberMe, else a browser-session cookie. */
export function setRefreshCookie(ctx: Context, token: string, remember: boolean): void {
  ctx.cookies.set(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    secure: ctx.secure,
    overwrite: true,
    ...(remember ? { maxAge: REFRESH_TOKEN_SECONDS * 1000 } : {}),
  });
}

export function clearRefreshCookie(ctx: Context): void {
  ctx.cookies.set(REFRESH_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: REFRESH_COOKIE_PATH,
    secure: ctx.secure,
    maxAge: 0,
    overwrite: true,
  });
}

/** The web-interface session cookie: httpOnly, SameSite=Strict, whole site, ends with the browser session. */
export function setSessionCookie(ctx: Context, name: string, token: string): void {
  ctx.cookies.set(name, token, { httpOnly: true, sameSite: 'strict', path: '/', secure: ctx.secure, overwrite: true });
}

export function clearSessionCookie(ctx: Context, name: string): void {
  ctx.cookies.set(name, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: ctx.secure,
    maxAge: 0,
    overwrite: true,
  });
}
