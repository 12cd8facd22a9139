import { createHash } from 'node:crypto';
import type { Db } from '../storage/database.ts';

/** API keys are 64 hex characters (SPEC). */
export const API_KEY_PATTERN = /^[0-9a-f]{64}$/i;

export interface StoredApiKey {
  id: number;
  description: string;
  allowedPaths: Record<string, 'read' | 'write'>;
  fullPermissions: boolean;
  /** 'none', 'localhost', or a network filter id. */
  networkFilterId: string;
}

/** SHA-256 of the key: keys are high-entropy, so a fast hash with a unique index is enough. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key.toLowerCase()).digest('hex');
}

/** One indexed lookup, never a scan. Returns undefined for unknown or malformed keys. */
export function findApiKey(db: Db, key: string): StoredApiKey | undefined {
  if (!API_KEY_PATTERN.test(key)) return undefined;
  const row = db
    .prepare('SELECT id, description, allowed_paths, full_permissions, networkfilterid FROM api_keys WHERE key_hash = ?')
    .get(hashApiKey(key)) as
    | { id: number; description: string; allowed_paths: string; full_permissions: number; networkfilterid: string }
    | undefined;
  if (!row) return undefined;
  return {
    id: row.id,
    description: row.description,
    allowedPaths: JSON.parse(row.allowed_paths) as Record<string, 'read' | 'write'>,
    fullPermissions: row.full_permissions === 1,
    networkFilterId: row.networkfilterid,
  };
}
