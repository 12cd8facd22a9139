import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../storage/database.ts';
import type { Role } from './principal.ts';

/** SPEC: refresh tokens last 2592000 s (30 days). */
export const REFRESH_TOKEN_SECONDS = 2_592_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export interface IssuedRefresh {
  sessionId: string;
  login: string;
  role: Role;
  remember: boolean;
  /** The cookie value; only its hash is stored. */
  refreshToken: string;
}

export type RotateOutcome = ({ ok: true } & IssuedRefresh) | { ok: false; reason: string };

function issueToken(db: Db, sessionId: string, nowMs: number): string {
  const token = newToken();
  db.prepare('INSERT INTO refresh_tokens (token_hash, session_id, expires_at) VALUES (?, ?, ?)').run(
    hashToken(token),
    sessionId,
    nowMs + REFRESH_TOKEN_SECONDS * 1000,
  );
  return token;
}

/** Opens a login session (a refresh-token family, the JWT `sid`) and issues its first refresh token. */
export function startLoginSession(
  db: Db,
  user: { login: string; role: Role },
  remember: boolean,
  nowMs: number,
): IssuedRefresh {
  return db.transaction(() => {
    db.prepare('DELETE FROM refresh_tokens WHERE expires_at < ?').run(nowMs);
    const sessionId = randomUUID();
    db.prepare('INSERT INTO auth_sessions (id, login, remember, created_at) VALUES (?, ?, ?, ?)').run(
      sessionId,
      user.login,
      remember ? 1 : 0,
      new Date(nowMs).toISOString(),
    );
    return { sessionId, login: user.login, role: user.role, remember, refreshToken: issueToken(db, sessionId, nowMs) };
  })();
}

/**
 * Exchanges a refresh token for a new one in the same family. A token that was already exchanged
 * is a replay (stolen, or a copy): the whole family is revoked, logging out every device in it.
 */
export function rotateRefreshToken(db: Db, token: string, nowMs: number): RotateOutcome {
  return db.transaction((): RotateOutcome => {
    const row = db
      .prepare(
        `SELECT t.session_id, t.expires_at, t.rotated_at, s.revoked_at, s.remember, s.login, u.role
         FROM refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id JOIN users u ON u.login = s.login
         WHERE t.token_hash = ?`,
      )
      .get(hashToken(token)) as
      | {
          session_id: string;
          expires_at: number;
          rotated_at: number | null;
          revoked_at: string | null;
          remember: number;
          login: string;
          role: Role;
        }
      | undefined;
    if (!row) return { ok: false, reason: 'unknown refresh token' };
    if (row.revoked_at) return { ok: false, reason: 'refresh token of a revoked session' };
    if (row.rotated_at !== null) {
      revokeSession(db, row.session_id, 'refresh token reused', nowMs);
      return { ok: false, reason: 'refresh token reused; the session was revoked' };
    }
    if (row.expires_at <= nowMs) return { ok: false, reason: 'refresh token expired' };
    db.prepare('UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ?').run(nowMs, hashToken(token));
    return {
      ok: true,
      sessionId: row.session_id,
      login: row.login,
      role: row.role,
      remember: row.remember === 1,
      refreshToken: issueToken(db, row.session_id, nowMs),
    };
  })();
}

export function revokeSession(db: Db, sessionId: string, why: string, nowMs: number): void {
  db.prepare('UPDATE auth_sessions SET revoked_at = ?, revoked_why = ? WHERE id = ? AND revoked_at IS NULL').run(
    new Date(nowMs).toISOString(),
    why,
    sessionId,
  );
}

/** Logout: revokes the family of a refresh token (unknown tokens are ignored). */
export function revokeByRefreshToken(db: Db, token: string, nowMs: number): boolean {
  const row = db.prepare('SELECT session_id FROM refresh_tokens WHERE token_hash = ?').get(hashToken(token)) as
    | { session_id: string }
    | undefined;
  if (row) revokeSession(db, row.session_id, 'logout', nowMs);
  return row !== undefined;
}

/** Revokes every login session of a user, except `keep` (used when its password changes). */
export function revokeUserSessions(db: Db, login: string, nowMs: number, keep?: string): void {
  db.prepare(
    'UPDATE auth_sessions SET revoked_at = ?, revoked_why = ? WHERE login = ? AND revoked_at IS NULL AND id != ?',
  ).run(new Date(nowMs).toISOString(), 'password changed', login, keep ?? '');
  db.prepare('DELETE FROM web_sessions WHERE login = ? AND id != ?').run(login, keep ?? '');
}

/** The current role of a login session's user, or undefined when the session is revoked or unknown. */
export function liveSessionRole(db: Db, sessionId: string): Role | undefined {
  const row = db
    .prepare(
      'SELECT u.role FROM auth_sessions s JOIN users u ON u.login = s.login WHERE s.id = ? AND s.revoked_at IS NULL',
    )
    .get(sessionId) as { role: Role } | undefined;
  return row?.role;
}

/** Web-interface sessions last this long after login. */
export const WEB_SESSION_SECONDS = 12 * 3600;

export interface WebSession {
  id: string;
  login: string;
  role: Role;
}

/** Starts a web-interface session; returns the cookie value (only its hash is stored). */
export function startWebSession(db: Db, login: string, nowMs: number): { id: string; token: string } {
  const token = newToken();
  const id = randomUUID();
  db.prepare('DELETE FROM web_sessions WHERE expires_at < ?').run(nowMs);
  db.prepare('INSERT INTO web_sessions (token_hash, id, login, created_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(
    hashToken(token),
    id,
    login,
    nowMs,
    nowMs + WEB_SESSION_SECONDS * 1000,
  );
  return { id, token };
}

/** The live web session a cookie value names, or undefined. */
export function findWebSession(db: Db, token: string, nowMs: number): WebSession | undefined {
  if (token.length < 20 || token.length > 100) return undefined;
  const row = db
    .prepare(
      'SELECT w.id, w.login, u.role FROM web_sessions w JOIN users u ON u.login = w.login WHERE w.token_hash = ? AND w.expires_at > ?',
    )
    .get(hashToken(token), nowMs) as WebSession | undefined;
  return row;
}

export function endWebSession(db: Db, token: string): void {
  db.prepare('DELETE FROM web_sessions WHERE token_hash = ?').run(hashToken(token));
}
