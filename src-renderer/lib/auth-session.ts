// In-memory auth state: the access token never touches storage. The refresh token is an httpOnly
// cookie the browser sends to auth:refresh by itself.
import { useSyncExternalStore } from 'react';
import { OPERATIONS } from '#shared/contract/operations.ts';
import { API_BASE } from '../config/paths.ts';

export type AuthMode = 'checking' | 'localhost' | 'signed-in' | 'login-required';

export interface AuthSession {
  mode: AuthMode;
  login: string | null;
  accessToken: string | null;
  /** Why the login screen is shown (expired session, signed out...). */
  notice: string | null;
}

let session: AuthSession = { mode: 'checking', login: null, accessToken: null, notice: null };
const listeners = new Set<() => void>();
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;

function update(next: Partial<AuthSession>): void {
  session = { ...session, ...next };
  for (const listener of listeners) listener();
}

/** The current session, for non-React code (the API client). */
export function getAuthSession(): AuthSession {
  return session;
}

/** React hook over the session. */
export function useAuthSession(): AuthSession {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => session,
  );
}

/** Served over loopback: the server's localhost bypass applies, so no token is needed. */
export function enterLocalhostMode(): void {
  clearTimeout(refreshTimer);
  update({ mode: 'localhost', accessToken: null, login: null, notice: null });
}

/** Stores a fresh access token and schedules its renewal before it expires. */
export function startTokenSession(token: { accessToken: string; expiresIn: number; login?: string }): void {
  update({ mode: 'signed-in', accessToken: token.accessToken, login: token.login ?? session.login, notice: null });
  clearTimeout(refreshTimer);
  const renewInMs = Math.max(5, token.expiresIn * 0.8) * 1000;
  refreshTimer = setTimeout(() => {
    void refreshAccessToken().then((renewed) => {
      // Revoked or expired refresh token: say so now rather than on the next failing request.
      if (!renewed && session.mode === 'signed-in') requireLogin('Your session has ended. Sign in again.');
    });
  }, renewInMs);
}

/** Drops the token and shows the login screen, with an optional reason. */
export function requireLogin(notice: string | null = null): void {
  clearTimeout(refreshTimer);
  update({ mode: 'login-required', accessToken: null, notice });
}

/** Exchanges the refresh cookie for a new access token; concurrent callers share one request. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      // Straight to fetch: the client's own 401 handling calls this.
      const response = await fetch(`${API_BASE}${OPERATIONS['auth.refresh'].path}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      });
      const body = (await response.json().catch(() => null)) as {
        result?: boolean;
        data?: { accessToken?: string; expiresIn?: number; login?: string };
      } | null;
      if (response.ok && body?.result && body.data?.accessToken) {
        startTokenSession({
          accessToken: body.data.accessToken,
          expiresIn: body.data.expiresIn ?? 900,
          login: body.data.login,
        });
        return true;
      }
      return false;
    } catch {
      return false;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}
