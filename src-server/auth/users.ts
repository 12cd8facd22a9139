import type { Db } from '../storage/database.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Role } from './principal.ts';

/** The built-in administrator account; it has no password until one is set. */
export const ADMIN_LOGIN = 'admin';

export interface UserRecord {
  login: string;
  role: Role;
  passwordHash: string;
}

/** The message given whenever a login is refused because no admin password exists yet. */
export const NO_PASSWORD_MESSAGE =
  'No admin password is set yet. Set one with PBX_ADMIN_PASSWORD at first start, in the ' +
  'console on this machine (over loopback), or with "pbx-console admin set-password".';

export function findUser(db: Db, login: string): UserRecord | undefined {
  const row = db.prepare('SELECT login, role, password_hash FROM users WHERE login = ?').get(login) as
    | { login: string; role: Role; password_hash: string }
    | undefined;
  return row && { login: row.login, role: row.role, passwordHash: row.password_hash };
}

/**
 * Whether the built-in `admin` account has a password: what auth:status reports, when
 * PBX_ADMIN_PASSWORD applies, and until when remote login is refused. Other accounts, of any
 * role, do not count: they never make `admin` usable.
 */
export function adminPasswordSet(db: Db): boolean {
  return db.prepare('SELECT 1 FROM users WHERE login = ?').get(ADMIN_LOGIN) !== undefined;
}

/** Creates the user or replaces its password (and role). Hashing runs off the event loop. */
export async function setUserPassword(
  db: Db,
  login: string,
  password: string,
  role: Role = 'admin',
  nowMs = Date.now(),
): Promise<void> {
  const hash = await hashPassword(password);
  const now = new Date(nowMs).toISOString();
  db.prepare(
    `INSERT INTO users (login, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(login) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role, updated_at = excluded.updated_at`,
  ).run(login, hash, role, now, now);
}

// Verified against when the login is unknown, so both cases cost one scrypt (no user enumeration by timing).
let decoyHash: Promise<string> | undefined;

/** The user when login and password match, else undefined. Always costs one scrypt. */
export async function checkCredentials(db: Db, login: string, password: string): Promise<UserRecord | undefined> {
  const user = findUser(db, login);
  if (!user) {
    decoyHash ??= hashPassword('decoy password that never matches');
    await verifyPassword(password, await decoyHash);
    return undefined;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user : undefined;
}
