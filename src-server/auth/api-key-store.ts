import { createHash, randomBytes } from 'node:crypto';
import { tryBackgroundWrite } from '../storage/background-write.ts';
import { grantRowByHash, recordKeyUse, type ApiKeyGrantRow } from '../storage/api-key-rows.ts';
import type { Db } from '../storage/database.ts';
import type { AllowedPaths } from './allowed-paths.ts';
import { keyWeakness } from './key-strength.ts';

// The rows themselves (SQL) are storage/api-key-rows.ts's; a key's record and its sources read through here.
export { keySources, type ApiKeyGrantRow } from '../storage/api-key-rows.ts';

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
  /** Bouncer export and feed: at most this many entries (null: every one). */
  entryCap: number | null;
  /** Bouncer export and feed: entries merged into the fewest CIDRs. */
  aggregate: boolean;
  /** ISO time the key was disabled; null while it is enabled. A disabled key is refused (401). */
  disabledAt: string | null;
  /** ISO time after which the key is refused (401); null = never. */
  expiresAt: string | null;
}

/** How many source addresses are remembered per key (the most recent ones). */
export const MAX_KEY_SOURCES = 20;

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
  const row = grantRowByHash(db, hashApiKey(key));
  return row && storedApiKey(row);
}

/** A key's grant columns decoded: what authentication enforces, and what the key's record shows. */
export function storedApiKey(row: ApiKeyGrantRow): StoredApiKey {
  return {
    id: row.id,
    description: row.description,
    allowedPaths: parseAllowedPaths(row.allowed_paths),
    fullPermissions: row.full_permissions === 1,
    networkFilterId: row.networkfilterid,
    expandRanges: row.expand_ranges === 1,
    entryCap: row.entry_cap ?? null,
    aggregate: row.aggregate === 1,
    disabledAt: row.disabled_at,
    expiresAt: row.expires_at,
  };
}

/** Whether a key's expiry has passed at `nowMs` (a key with no expiry never expires). */
export function keyExpired(key: Pick<StoredApiKey, 'expiresAt'>, nowMs: number): boolean {
  return key.expiresAt !== null && Date.parse(key.expiresAt) <= nowMs;
}

const lastTouched = new WeakMap<Db, Map<string, number>>();

/** Forgets throttle entries older than the interval once the map grows, so it stays small. */
function prune(seen: Map<string, number>, nowMs: number): void {
  if (seen.size < 10_000) return;
  for (const [entry, at] of seen) if (nowMs - at >= TOUCH_INTERVAL_MS) seen.delete(entry);
}

/**
 * Records a key's use from `ip`, at most once a minute per (key, address), remembered in memory
 * and enforced in SQL: the key's `last_used_at`/`last_used_ip`, and the address's row in
 * `api_key_sources`, which keeps the MAX_KEY_SOURCES most recent addresses of the key. A bouncer
 * polling every few seconds therefore costs one write a minute. Returns whether it wrote.
 */
export function touchApiKey(db: Db, keyId: number, ip: string, nowMs: number): boolean {
  let seen = lastTouched.get(db);
  if (!seen) lastTouched.set(db, (seen = new Map()));
  const entry = `${keyId} ${ip}`;
  const previous = seen.get(entry);
  if (previous !== undefined && nowMs - previous < TOUCH_INTERVAL_MS) return false;
  prune(seen, nowMs);
  seen.set(entry, nowMs);
  const at = new Date(nowMs).toISOString();
  const cutoff = new Date(nowMs - TOUCH_INTERVAL_MS).toISOString();
  let wrote = false;
  // A last-use stamp is statistics: a locked database (a long import in a worker) must not hold up or
  // fail the request that presented the key, even for the short background wait. It is tried again
  // at the key's next use.
  const stored = tryBackgroundWrite(
    db,
    () => (wrote = recordKeyUse(db, { keyId, ip, at, cutoff, maxSources: MAX_KEY_SOURCES })),
    () => seen.delete(entry),
    0,
  );
  return stored && wrote;
}
