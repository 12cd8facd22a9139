import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../auth/api-key-store.ts';
import type { Db } from '../storage/database.ts';

export interface TestApiKeyOptions {
  description?: string;
  allowedPaths?: Record<string, 'read' | 'write'>;
  fullPermissions?: boolean;
  /** 'none' (default), 'localhost', or a network filter id. */
  networkFilterId?: string;
}

/** The allowed_paths a bouncer key needs. */
export const BOUNCER_PATHS = { '/api/v3/firewall-bouncer': 'read' } as const;

/** Inserts an API key row directly (tests only) and returns its id and the key itself. */
export function createTestApiKey(db: Db, options: TestApiKeyOptions = {}): { id: number; key: string } {
  const key = randomBytes(32).toString('hex');
  const info = db
    .prepare(
      `INSERT INTO api_keys (description, key_hash, key_display, allowed_paths, full_permissions, networkfilterid, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      options.description ?? 'test key',
      hashApiKey(key),
      `${key.slice(0, 4)}...${key.slice(-4)}`,
      JSON.stringify(options.allowedPaths ?? BOUNCER_PATHS),
      options.fullPermissions ? 1 : 0,
      options.networkFilterId ?? 'none',
      new Date().toISOString(),
    );
  return { id: Number(info.lastInsertRowid), key };
}
