import { sqlMigration } from './migration.ts';

/**
 * Accounts and login state: users (scrypt hashes), refresh-token families (one per login, the JWT
 * `sid`), refresh tokens (hashed, rotated) and web-interface sessions (hashed cookie values).
 */
export const accountsAndSessionsMigration = sqlMigration(
  10,
  'accounts and sessions',
  `
      CREATE TABLE users (
        login         TEXT PRIMARY KEY,
        password_hash TEXT NOT NULL,              -- scrypt$N$r$p$salt$hash
        role          TEXT NOT NULL CHECK (role IN ('admin', 'viewer')),
        created_at    TEXT NOT NULL,
        updated_at    TEXT NOT NULL
      );
      CREATE TABLE auth_sessions (
        id          TEXT PRIMARY KEY,             -- the JWT sid; one family of refresh tokens
        login       TEXT NOT NULL REFERENCES users(login) ON DELETE CASCADE,
        remember    INTEGER NOT NULL DEFAULT 0,
        created_at  TEXT NOT NULL,
        revoked_at  TEXT,
        revoked_why TEXT
      );
      CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,              -- SHA-256 of the cookie value
        session_id TEXT NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
        expires_at INTEGER NOT NULL,              -- epoch ms
        rotated_at INTEGER                        -- set once exchanged; presenting it again is reuse
      );
      CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
      CREATE TABLE web_sessions (
        token_hash TEXT PRIMARY KEY,              -- SHA-256 of the session cookie value
        id         TEXT NOT NULL UNIQUE,
        login      TEXT NOT NULL REFERENCES users(login) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `,
);
