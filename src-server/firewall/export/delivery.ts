import type { Db } from '../../storage/database.ts';
import { activeBouncers } from './bouncer-keys.ts';
import { type BanKind, type DecisionKey, MANUAL_SCENARIO, type Scenario } from '../model/index.ts';

/**
 * A bouncer is "silent" after this long without a poll: three times the longest recommended poll
 * interval (SPEC: 5 to 10 s). The dashboard's banner and the bouncer state use it.
 */
export const SILENT_AFTER_MS = 30_000;

/** How far one published decision reached: how many active bouncer keys were sent it, and which. */
export interface Delivery {
  served: number;
  of: number;
  keys: Array<{ keyId: number; description: string }>;
}

export const scenarioOfBan = (category: BanKind): Scenario =>
  category === 'manual' ? MANUAL_SCENARIO : `pbx/${category}`;

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
