import type { Db } from '../../storage/database.ts';
import { receivingKeyRows } from './bouncer-keys.ts';
import { CURSOR_TTL_MS } from './cursor-store.ts';
import { identityOf, MANUAL_SCENARIO, type BanKind, type DecisionKey, type Scenario } from '../model/index.ts';

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

/** A key that should receive every ban: granted on the export (or polling it now), enabled, not expired. */
interface ReceivingKey {
  keyId: number;
  description: string;
  /** The newest decision-log version its stream was sent; undefined when it never polled. */
  streamVersion: number | undefined;
  /** The version of its last feed fetch; undefined when it never fetched. */
  feedVersion: number | undefined;
  /** Its cap, when it has one, and the own bans (identities) that cap left out at its last answer. */
  cap: number | null;
  leftOutOwn: ReadonlySet<string>;
}

/** How far one published decision reached: of the keys that should receive it, which were sent it, and why not the others. */
export interface Delivery {
  served: number;
  of: number;
  keys: Array<{ keyId: number; description: string }>;
  /** The keys not sent it, each with why: never polled, not polled since, or its cap left it out. */
  missing: Array<{ keyId: number; description: string; why: string }>;
}

export const scenarioOfBan = (category: BanKind): Scenario =>
  category === 'manual' ? MANUAL_SCENARIO : `pbx/${category}`;

function parseIdentities(text: string | null): Set<string> {
  try {
    const parsed: unknown = JSON.parse(text ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * Every key that should receive a ban (runs in workers; the web thread writes cursors and feed
 * fetches at most a second late): granted read on the export, or served it within the cursor's
 * lifetime (a full-permission key polling it); enabled and not expired. A key that never polled is
 * counted too: "1 of 2: fw1 has never polled".
 */
function receivingKeys(db: Db, now: number): ReceivingKey[] {
  const rows = receivingKeyRows(db, now, CURSOR_TTL_MS);
  return rows
    .filter((row) => row.keyExpiresAt === null || Date.parse(row.keyExpiresAt) > now)
    .map((row) => {
      // Only a key still capped now: a cap removed since its last answer leaves nothing out.
      const capped = row.entryCap !== null && row.stateCap !== null;
      return {
        keyId: row.keyId,
        description: row.description,
        streamVersion: row.streamVersion ?? undefined,
        feedVersion: row.feedVersion ?? undefined,
        cap: capped ? row.stateCap : null,
        leftOutOwn: capped ? parseIdentities(row.leftOutOwn) : new Set<string>(),
      };
    });
}

const name = (key: ReceivingKey) => key.description || `Key #${key.keyId}`;

/**
 * A function telling, for a published decision, which of the keys that should receive it were
 * sent it and why the others were not: a key counts as sent once its newest stream answer or feed
 * fetch is at or after the version that published it (HTTP has no acknowledgement, and each answer
 * carries the key's whole set), unless its cap left the decision out.
 */
export function deliveryLookup(db: Db, now: number): (value: string, scenario: DecisionKey['scenario']) => Delivery {
  const keys = receivingKeys(db, now);
  const addedAt = db
    .prepare('SELECT added_version FROM bouncer_decisions WHERE value = ? AND scenario = ? AND removed_version IS NULL')
    .pluck();
  return (value, scenario) => {
    const added = addedAt.get(value, scenario) as number | undefined;
    const identity = identityOf({ value, scenario });
    const sent: Delivery['keys'] = [];
    const missing: Delivery['missing'] = [];
    for (const key of keys) {
      const reached = (version: number | undefined) => version !== undefined && added !== undefined && version >= added;
      const why =
        key.cap !== null && key.leftOutOwn.has(identity)
          ? `is capped at ${key.cap.toLocaleString('en-US')} and left it out`
          : reached(key.streamVersion) || reached(key.feedVersion)
            ? undefined
            : key.streamVersion === undefined && key.feedVersion === undefined
              ? 'has never polled'
              : 'has not polled since it was published';
      if (why === undefined) sent.push({ keyId: key.keyId, description: key.description });
      else missing.push({ keyId: key.keyId, description: key.description, why: `${name(key)} ${why}` });
    }
    return { served: sent.length, of: keys.length, keys: sent, missing };
  };
}
