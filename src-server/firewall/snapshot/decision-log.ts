import { isSqliteBusy, writeWithShortWait } from '../../storage/background-write.ts';
import type { Db } from '../../storage/database.ts';
import { type DecisionKey, identityOf, type Scenario } from '../model/index.ts';

/**
 * Removals are kept at least this long, whatever the cursors: a bouncer back from an outage longer
 * than the 1 h cursor lifetime still gets them in `deleted` (ARCHITECTURE "Cursors").
 */
export const REMOVAL_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** One lifetime of a decision in the published set: present for versions [addedVersion, removedVersion). */
interface RemovedLifetime {
  key: DecisionKey;
  identity: string;
  addedVersion: number;
  removedVersion: number;
  /** Epoch ms of the removal, for the retention. */
  removedAt: number;
}

/** What a cursor at some version must be told was removed since. */
export interface Removals {
  keys: DecisionKey[];
  /**
   * False when the cursor is older than the kept history: then `keys` is every kept removal that
   * is not published now (a superset; deleting what a bouncer does not hold is harmless).
   */
  complete: boolean;
}

/**
 * The durable history of the published decision set, keyed by decision identity (value, scenario).
 * Every change of membership gets a new version; a bouncer's cursor is just the version it was
 * last served. So 1,000 keys share one log instead of each holding 100k ids, and `deleted` for a
 * cursor at version v is every decision alive at v that is gone now. The log lives in SQLite, so a
 * restart (and whatever changed while the server was down) still reaches every cursor.
 */
export class DecisionLog {
  /** Current membership version. */
  version = 0;
  /** Removals up to this version were pruned: a cursor older than it cannot be diffed exactly. */
  horizon = 0;
  private readonly published = new Map<string, { key: DecisionKey; addedVersion: number }>();
  /** Sorted by removedVersion (appends only ever use a newer version). */
  private removed: RemovedLifetime[] = [];
  private readonly statements;

  constructor(private readonly db: Db) {
    const state = (name: string) =>
      (db.prepare('SELECT value FROM bouncer_state WHERE name = ?').get(name) as { value: number } | undefined)
        ?.value ?? 0;
    this.version = state('version');
    this.horizon = state('horizon');
    const rows = db
      .prepare(
        'SELECT value, scenario, added_version, removed_version, removed_at FROM bouncer_decisions ORDER BY removed_version, added_version',
      )
      .all() as Array<{
      value: string;
      scenario: Scenario;
      added_version: number;
      removed_version: number | null;
      removed_at: number | null;
    }>;
    for (const row of rows) {
      const key = { value: row.value, scenario: row.scenario };
      const identity = identityOf(key);
      if (row.removed_version === null) this.published.set(identity, { key, addedVersion: row.added_version });
      else
        this.removed.push({
          key,
          identity,
          addedVersion: row.added_version,
          removedVersion: row.removed_version,
          removedAt: row.removed_at ?? 0,
        });
    }
    this.statements = {
      markRemoved: db.prepare(
        'UPDATE bouncer_decisions SET removed_version = ?, removed_at = ? WHERE value = ? AND scenario = ? AND removed_version IS NULL',
      ),
      insert: db.prepare('INSERT INTO bouncer_decisions (value, scenario, added_version) VALUES (?, ?, ?)'),
      setState: db.prepare(
        'INSERT INTO bouncer_state (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value',
      ),
      prune: db.prepare('DELETE FROM bouncer_decisions WHERE removed_version IS NOT NULL AND removed_version <= ?'),
    };
  }

  /** Number of decisions in the published set. */
  get size(): number {
    return this.published.size;
  }

  /** Number of removed lifetimes still kept. */
  get removedCount(): number {
    return this.removed.length;
  }

  /**
   * Records `current` (identity to key) as the published set: the whole set is compared with what
   * was published before (at start, when nothing in memory knows what changed).
   */
  publish(current: ReadonlyMap<string, DecisionKey>, now: number): number {
    const added = new Map<string, DecisionKey>();
    const gone = new Set<string>();
    for (const [identity, key] of current) if (!this.published.has(identity)) added.set(identity, key);
    for (const identity of this.published.keys()) if (!current.has(identity)) gone.add(identity);
    return this.publishChanges(added, gone, now);
  }

  /**
   * Applies a known change of membership: the version moves on and the change is written in one
   * transaction. Identities already in the wanted state are ignored. Returns the (possibly unchanged) version.
   */
  publishChanges(added: ReadonlyMap<string, DecisionKey>, gone: ReadonlySet<string>, now: number): number {
    const adds = [...added].filter(([identity]) => !this.published.has(identity));
    const removals = [...gone].filter((identity) => this.published.has(identity) && !added.has(identity));
    if (adds.length === 0 && removals.length === 0) return this.version;

    const version = this.version + 1;
    const { markRemoved, insert, setState } = this.statements;
    this.db.transaction(() => {
      for (const identity of removals) {
        const { key } = this.published.get(identity)!;
        markRemoved.run(version, now, key.value, key.scenario);
      }
      for (const [, key] of adds) insert.run(key.value, key.scenario, version);
      setState.run('version', version);
    })();

    for (const identity of removals) {
      const entry = this.published.get(identity)!;
      this.published.delete(identity);
      this.removed.push({
        key: entry.key,
        identity,
        addedVersion: entry.addedVersion,
        removedVersion: version,
        removedAt: now,
      });
    }
    for (const [identity, key] of adds) this.published.set(identity, { key, addedVersion: version });
    this.version = version;
    return version;
  }

  /**
   * publishChanges for the web thread: waits at most BACKGROUND_BUSY_WAIT_MS for the write lock
   * (a worker's long write must not stall every poll) and returns undefined when it is held; the
   * caller keeps the change and tries again. Other errors throw.
   */
  tryPublishChanges(
    added: ReadonlyMap<string, DecisionKey>,
    gone: ReadonlySet<string>,
    now: number,
  ): number | undefined {
    try {
      return writeWithShortWait(this.db, () => this.publishChanges(added, gone, now));
    } catch (error) {
      if (isSqliteBusy(error)) return undefined;
      throw error;
    }
  }

  /**
   * The decisions a key may hold that are gone at version `until` (default: now), for a key whose
   * oldest answer in its window had version `since`: every lifetime removed after `since` (it was
   * alive at `since` or joined later, and any answer since may have carried it) that is not alive
   * at `until`. A superset of what the key holds, which is harmless. Costs only the removals made
   * after `since` (all kept removals when `since` predates the kept history).
   */
  removedSince(since: number, until: number = this.version): Removals {
    if (since >= until) return { keys: [], complete: true };
    const complete = since >= this.horizon;
    const end = this.firstRemovedAfter(until);
    // Alive at `until`: published since then or earlier, or removed only after it.
    const aliveAtUntil = (identity: string): boolean => {
      const live = this.published.get(identity);
      if (live && live.addedVersion <= until) return true;
      for (let i = end; i < this.removed.length; i++) {
        const later = this.removed[i]!;
        if (later.identity === identity && later.addedVersion <= until) return true;
      }
      return false;
    };
    const keys: DecisionKey[] = [];
    const seen = new Set<string>();
    for (let i = complete ? this.firstRemovedAfter(since) : 0; i < end; i++) {
      const entry = this.removed[i]!;
      if (seen.has(entry.identity)) continue;
      seen.add(entry.identity);
      if (!aliveAtUntil(entry.identity)) keys.push(entry.key);
    }
    return { keys, complete };
  }

  /**
   * Drops removals older than the retention that no live cursor still needs (every live cursor is
   * at `oldestLiveVersion` or later; undefined when none is live).
   */
  prune(now: number, oldestLiveVersion: number | undefined): void {
    const limit = oldestLiveVersion ?? Infinity;
    let keepFrom = 0;
    while (keepFrom < this.removed.length) {
      const entry = this.removed[keepFrom]!;
      if (entry.removedAt > now - REMOVAL_RETENTION_MS || entry.removedVersion > limit) break;
      keepFrom++;
    }
    if (keepFrom === 0) return;
    const horizon = this.removed[keepFrom - 1]!.removedVersion;
    this.removed = this.removed.slice(keepFrom);
    this.horizon = Math.max(this.horizon, horizon);
    this.db.transaction(() => {
      this.statements.prune.run(horizon);
      this.statements.setState.run('horizon', this.horizon);
    })();
  }

  private firstRemovedAfter(version: number): number {
    let lo = 0;
    let hi = this.removed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.removed[mid]!.removedVersion > version) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
