import { sqlMigration } from './migration.ts';

/**
 * API keys and network filters: defined early because auth (key binding) and the firewall
 * (decisions, bouncer access) both read them.
 */
export const keysAndFiltersMigration = sqlMigration(
  2,
  'api keys and network filters',
  `
      CREATE TABLE network_filters (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        permit         TEXT NOT NULL,              -- CIDR, e.g. 192.0.2.10/32
        deny           TEXT NOT NULL DEFAULT '0.0.0.0/0', -- comma-separated CIDRs or addresses
        description    TEXT NOT NULL DEFAULT '',
        newer_block_ip INTEGER NOT NULL DEFAULT 0, -- trusted: never banned, part of the whitelist
        local_network  INTEGER NOT NULL DEFAULT 0,
        rules          TEXT NOT NULL DEFAULT '{}'  -- JSON {SIP|WEB|AMI|IAX: "allow"|"block"}
      );
      CREATE TABLE api_keys (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        description      TEXT NOT NULL,
        key_hash         TEXT NOT NULL UNIQUE,      -- SHA-256 hex of the key; the key itself is never stored
        key_display      TEXT NOT NULL,             -- first and last 4 characters
        allowed_paths    TEXT NOT NULL DEFAULT '{}',-- JSON {"/api/v3/<resource>": "read"|"write"}
        full_permissions INTEGER NOT NULL DEFAULT 0,
        networkfilterid  TEXT NOT NULL DEFAULT 'none', -- 'none' | 'localhost' | network_filters.id
        created_at       TEXT NOT NULL,
        last_used_at     TEXT,
        last_used_ip     TEXT
      );
    `,
);
