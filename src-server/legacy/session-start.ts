import type Router from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../wire/errors.ts';
import type { Services } from '../services.ts';
import { SESSION_COOKIE } from '../auth/authenticate.ts';
import { setSessionCookie } from '../http/cookies.ts';
import { startWebSession } from '../auth/login-sessions.ts';
import { loginWithPassword } from '../auth/password-login.ts';

/** Where the browser goes after a successful login: the console. */
const RELOAD_TO = '/';

function answer(
  ctx: Context,
  status: number,
  success: boolean,
  messages: string[],
  headers: Record<string, string> = {},
): void {
  ctx.status = status;
  ctx.set(headers);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify({ success, reload: success ? RELOAD_TO : '', message: messages });
}

/** The older web-interface login: form body, XMLHttpRequest header, server-side session cookie. */
export function registerSessionStartRoutes(router: Router, services: Services): void {
  router.post('/admin-cabinet/session/start', async (ctx) => {
    if (ctx.get('x-requested-with').toLowerCase() !== 'xmlhttprequest') {
      return answer(ctx, 403, false, ['This endpoint needs the header X-Requested-With: XMLHttpRequest.']);
    }
    const body = (typeof ctx.request.body === 'object' && ctx.request.body !== null ? ctx.request.body : {}) as Record<
      string,
      unknown
    >;
    try {
      const user = await loginWithPassword(services, ctx, body.login, body.password);
      const session = startWebSession(services.db, user.login, services.clock.now());
      setSessionCookie(ctx, SESSION_COOKIE, session.token);
      answer(ctx, 200, true, []);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      answer(ctx, error.status, false, error.messages, error.headers);
    }
  });
}
