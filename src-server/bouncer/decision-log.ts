import type { Db } from '../storage/database.ts';
import { deletedDecisionJson, type DecisionKey, type Scenario } from '../firewall/decisions.ts';

/** One lifetime of a decision in the published set: present for versions [addedVersion, removedVersion). */
interface RemovedLifetime {
  id: number;
  addedVersion: number;
  removedVersion: number;
  /** Its JSON as listed in `deleted`, rendered once. */
  json: string;
}

/**
 * The durable history of the published decision set. Every change of membership gets a new
 * version; a bouncer's cursor is just the version it was last served. So 1,000 keys share one
 * log instead of each holding 100k ids, and `deleted` for a cursor at version v is every
 * decision alive at v that is gone now. The log lives in SQLite, so a restart (and whatever
 * changed while the server was down) still reaches every cursor.
 */
export class DecisionLog {
  /** Current membership version. */
  version = 0;
  private readonly published = new Map<number, { key: DecisionKey; addedVersion: number }>();
  /** Sorted by removedVersion (appends only ever use a newer version). */
  private removed: RemovedLifetime[] = [];

  constructor(private readonly db: Db) {
    const row = db.prepare("SELECT value FROM bouncer_state WHERE name = 'version'").get() as { value: number } | undefined;
    this.version = row?.value ?? 0;
    const rows = db
      .prepare('SELECT decision_id, added_version, removed_version, value, scenario FROM bouncer_decisions ORDER BY removed_version, added_version')
      .all() as Array<{ decision_id: number; added_version: number; removed_version: number | null; value: string; scenario: Scenario }>;
    for (const row of rows) {
      const key = { value: row.value, scenario: row.scenario };
      if (row.removed_version === null) this.published.set(row.decision_id, { key, addedVersion: row.added_version });
      else this.removed.push({ id: row.decision_id, addedVersion: row.added_version, removedVersion: row.removed_version, json: deletedDecisionJson(key) });
    }
  }

  /** Number of decisions in the published set. */
  get size(): number {
    return this.published.size;
  }

  /** Number of removed lifetimes still kept for some cursor. */
  get removedCount(): number {
    return this.removed.length;
  }

  /**
   * Records `current` as the published set. When membership changed, the version moves on and
   * the change is written in one transaction. Returns the (possibly unchanged) version.
   */
  publish(current: ReadonlyMap<number, DecisionKey>): number {
    const added: Array<[number, DecisionKey]> = [];
    const gone: number[] = [];
    for (const [id, key] of current) if (!this.published.has(id)) added.push([id, key]);
    for (const id of this.published.keys()) if (!current.has(id)) gone.push(id);
    if (added.length === 0 && gone.length === 0) return this.version;

    const version = this.version + 1;
    const markRemoved = this.db.prepare('UPDATE bouncer_decisions SET removed_version = ? WHERE decision_id = ? AND removed_version IS NULL');
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO bouncer_decisions (decision_id, added_version, removed_version, value, scenario) VALUES (?, ?, NULL, ?, ?)',
    );
    this.db.transaction(() => {
      for (const id of gone) markRemoved.run(version, id);
      for (const [id, key] of added) insert.run(id, version, key.value, key.scenario);
      this.db.prepare("INSERT INTO bouncer_state (name, value) VALUES ('version', ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value").run(version);
    })();

    for (const id of gone) {
      const entry = this.published.get(id)!;
      this.published.delete(id);
      this.removed.push({ id, addedVersion: entry.addedVersion, removedVersion: version, json: deletedDecisionJson(entry.key) });
    }
    for (const [id, key] of added) this.published.set(id, { key, addedVersion: version });
    this.version = version;
    return version;
  }

  /**
   * The decisions a cursor at `since` still holds that are not in the published set now, as JSON.
   * Costs only the removals made after `since`.
   */
  deletedSince(since: number): string[] {
    if (since >= this.version) return [];
    const out: string[] = [];
    const seen = new Set<number>();
    for (let i = this.firstRemovedAfter(since); i < this.removed.length; i++) {
      const entry = this.removed[i]!;
      if (entry.addedVersion > since || this.published.has(entry.id) || seen.has(entry.id)) continue;
      seen.add(entry.id);
      out.push(entry.json);
    }
    return out;
  }

  /** Drops removals no live cursor can still need (all cursors are at `oldestInUse` or later). */
  prune(oldestInUse: number): void {
    const keepFrom = this.firstRemovedAfter(oldestInUse);
    if (keepFrom === 0) return;
    this.removed = this.removed.slice(keepFrom);
    this.db.prepare('DELETE FROM bouncer_decisions WHERE removed_version IS NOT NULL AND removed_version <= ?').run(oldestInUse);
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
