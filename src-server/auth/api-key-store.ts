import { createHash, randomBytes } from 'node:crypto';
import { statement, type Db } from '../storage/database.ts';
import type { AllowedPaths } from './allowed-paths.ts';
import { keyWeakness } from './key-strength.ts';

/** API keys are 64 hex characters (SPEC). */
export const API_KEY_PATTERN = /^[0-9a-f]{64}$/i;

/** `last_used_at`/`last_used_ip` are written at most this often per key, so polling bouncers cost no writes. */
export const TOUCH_INTERVAL_MS = 60_000;

export interface StoredApiKey {
  id: number;
  description: string;
  allowedPaths: AllowedPaths;
  fullPermissions: boolean;
  /** 'none', 'localhost', or a network filter id. */
  networkFilterId: string;
  /** Bouncer export: publish ranges as single addresses (clients that cannot hold ranges). */
  expandRanges: boolean;
}

/**
 * A fresh key: 64 hex characters from 32 random bytes. The rare draw (below 1e-8) that the
 * weak-key check would refuse from a client is drawn again, so a generated key always passes it.
 */
export function generateApiKey(): string {
  for (;;) {
    const key = randomBytes(32).toString('hex');
    if (keyWeakness(key) === undefined) return key;
  }
}

/** SHA-256 of the key: keys are high-entropy, so a fast hash with a unique index is enough. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key.toLowerCase()).digest('hex');
}

/** What lists show instead of the key: its first and last 4 characters. */
export function keyDisplay(key: string): string {
  return `${key.slice(0, 4)}...${key.slice(-4)}`;
}

/** Parses stored allowed_paths, treating anything unreadable as the empty map (which denies everything). */
export function parseAllowedPaths(text: string): AllowedPaths {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    const out: AllowedPaths = {};
    for (const [path, permission] of Object.entries(value)) {
      if (permission === 'read' || permission === 'write') out[path] = permission;
    }
    return out;
  } catch {
    return {};
  }
}

/** One indexed lookup, never a scan. Returns undefined for unknown or malformed keys. */
export function findApiKey(db: Db, key: string): StoredApiKey | undefined {
  if (!API_KEY_PATTERN.test(key)) return undefined;
  const row = statement(db, 'SELECT id, description, allowed_paths, full_permissions, networkfilterid, expand_ranges FROM api_keys WHERE key_hash = ?')
    .get(hashApiKey(key)) as
    | { id: number; description: string; allowed_paths: string; full_permissions: number; networkfilterid: string; expand_ranges: number }
    | undefined;
  if (!row) return undefined;
  return {
    id: row.id,
    description: row.description,
    allowedPaths: parseAllowedPaths(row.allowed_paths),
    fullPermissions: row.full_permissions === 1,
    networkFilterId: row.networkfilterid,
    expandRanges: row.expand_ranges === 1,
  };
}

const lastTouched = new WeakMap<Db, Map<number, number>>();

/** Records a key's use, at most once a minute per key (remembered in memory and enforced in SQL). */
export function touchApiKey(db: Db, keyId: number, ip: string, nowMs: number): boolean {
  let seen = lastTouched.get(db);
  if (!seen) lastTouched.set(db, (seen = new Map()));
  const previous = seen.get(keyId);
  if (previous !== undefined && nowMs - previous < TOUCH_INTERVAL_MS) return false;
  seen.set(keyId, nowMs);
  const cutoff = new Date(nowMs - TOUCH_INTERVAL_MS).toISOString();
  const info = statement(db, 'UPDATE api_keys SET last_used_at = ?, last_used_ip = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)')
    .run(new Date(nowMs).toISOString(), ip, keyId, cutoff);
  return info.changes > 0;
}
