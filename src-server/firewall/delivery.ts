import type { Db } from '../storage/database.ts';
import { MANUAL_SCENARIO, type BanKind, type DecisionKey, type Scenario } from './decisions.ts';

/**
 * A bouncer is "silent" after this long without a poll: three times the longest recommended poll
 * interval (SPEC: 5 to 10 s). The dashboard's banner and the bouncer state use it.
 */
export const SILENT_AFTER_MS = 30_000;

/** How often the console's router script fetches a feed (its MikroTik scheduler) unless the key says otherwise. */
export const DEFAULT_FEED_INTERVAL_MINUTES = 5;

/** A router feed is silent after three of the intervals the console offered its key (docs/health.md). */
export const feedSilentAfterMs = (intervalMinutes: number | null): number =>
  3 * (intervalMinutes ?? DEFAULT_FEED_INTERVAL_MINUTES) * 60_000;

/** A key is a router feed when its last poll was a feed fetch (a fetch counts as the key's poll). */
export const isFeedKey = (cursor: { lastPollAt: number | null; lastFetchAt: number | null }): boolean =>
  cursor.lastFetchAt !== null && cursor.lastFetchAt === cursor.lastPollAt;

/** An API key that is an active bouncer: it polled within its cursor's lifetime and is neither disabled nor expired. */
export interface ActiveBouncer {
  keyId: number;
  description: string;
  /** The newest decision-log version it was sent. */
  version: number;
}

/** How far one published decision reached: how many active bouncer keys were sent it, and which. */
export interface Delivery {
  served: number;
  of: number;
  keys: Array<{ keyId: number; description: string }>;
}

export const scenarioOfBan = (category: BanKind): Scenario =>
  category === 'manual' ? MANUAL_SCENARIO : `pbx/${category}`;

/** Active bouncer keys (runs in workers: the web thread writes cursors at most a second late). */
export function activeBouncers(db: Db, now: number): ActiveBouncer[] {
  const rows = db
    .prepare(
      `SELECT k.id AS keyId, k.description, c.version, k.expires_at AS keyExpiresAt
        FROM bouncer_cursors c JOIN api_keys k ON k.id = c.key_id
        WHERE c.version IS NOT NULL AND c.expires_at > ? AND k.disabled_at IS NULL ORDER BY k.id`,
    )
    .all(now) as Array<ActiveBouncer & { keyExpiresAt: string | null }>;
  return rows
    .filter((row) => row.keyExpiresAt === null || Date.parse(row.keyExpiresAt) > now)
    .map(({ keyId, description, version }) => ({ keyId, description, version }));
}

/**
 * A function telling, for a published decision, which active bouncers were sent it: those whose
 * newest answer's version is at or after the version that published it. "Sent" is what the server
 * knows: HTTP has no acknowledgement, and each answer carries the whole set. Any scenario: this
 * PBX's own, or that of an upstream decision it republishes.
 */
export function deliveryLookup(db: Db, now: number): (value: string, scenario: DecisionKey['scenario']) => Delivery {
  const bouncers = activeBouncers(db, now);
  const addedAt = db
    .prepare('SELECT added_version FROM bouncer_decisions WHERE value = ? AND scenario = ? AND removed_version IS NULL')
    .pluck();
  return (value, scenario) => {
    const added = addedAt.get(value, scenario) as number | undefined;
    const keys =
      added === undefined
        ? []
        : bouncers.filter((b) => b.version >= added).map(({ keyId, description }) => ({ keyId, description }));
    return { served: keys.length, of: bouncers.length, keys };
  };
}
