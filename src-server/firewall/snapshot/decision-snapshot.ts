import type { Clock } from '../../clock.ts';
import type { ActiveBan, BanChange, BanStore } from '../bans/index.ts';
import type { DecisionLog } from './decision-log.ts';
import type { DecisionKey } from '../model/index.ts';
import { ExpiryQueue } from './expiry-queue.ts';
import { filterBanValues, type FirewallState, type NetworkFilter } from '../filters/index.ts';
import { PublishedDecisions } from './published-decisions.ts';

/** The active decisions as served to every poll until the next rebuild. Immutable once built. */
export interface DecisionSnapshot {
  /** Decision-log version of this membership. */
  version: number;
  /** The `new` array's content as parts written in order (commas included, no brackets). */
  parts: readonly Buffer[];
  count: number;
  builtAt: number;
  /** The same for keys with `expand_ranges` (ranges within the limit as their addresses), made on first use. */
  expanded(): { parts: readonly Buffer[]; count: number };
}

/** Durations tick: a snapshot with bans is rebuilt at most this often. */
export const TICK_MS = 1000;
/**
 * Members re-rendered each second for their durations, beyond the chunks a change touched. Up to
 * this many bans every duration is exact to the second; above it the oldest chunks go first, so
 * each is refreshed every (bans / budget) seconds (10 s at 100,000 bans) and a duration may be
 * that much longer than what is left. Expiry is never late: a ban that expires leaves the snapshot
 * (and is deleted) at once.
 */
export const RENDER_BUDGET = 10_000;

/** The text of a snapshot's `new` array content in one form. */
export function snapshotParts(snapshot: DecisionSnapshot, expanded = false): readonly Buffer[] {
  return expanded ? snapshot.expanded().parts : snapshot.parts;
}

/** How many decisions a snapshot publishes in one form. */
export function snapshotCount(snapshot: DecisionSnapshot, expanded = false): number {
  return expanded ? snapshot.expanded().count : snapshot.count;
}

/**
 * Keeps the published decisions and builds the snapshot every poll shares. A change costs what it
 * touches, not the size of the set (docs/firewall.md "What a change costs"):
 * - a filter change re-reads only the filters whose deny list changed and adds or drops their
 *   values; the ban store reports what changed; expiries come from a queue;
 * - members live in rendered chunks: a change re-renders its chunks, ticking durations re-render
 *   at most RENDER_BUDGET members a second, and an untouched chunk keeps its Buffer, which the
 *   compressor reuses;
 * - membership changes go to the log as a difference.
 */
export class DecisionSnapshotCache {
  readonly published = new PublishedDecisions();
  private current: DecisionSnapshot | undefined;
  /** Each filter's deny list as last applied, and the values it published. */
  private filterValues = new Map<number, { deny: string; values: string[] }>();
  private revision = -1;
  private readonly expiries = new ExpiryQueue();
  private pending: BanChange[] = [];
  /**
   * Membership changes not yet in the decision log: a worker held the write lock when they were
   * made. Kept until the log takes them, so no deletion is lost; until then polls get the last
   * snapshot the log covers.
   */
  private unlogged = new Map<string, DecisionKey>();
  /** How many builds found the log's write lock held and served the previous snapshot (the benchmark reads it). */
  deferredBuilds = 0;
  private bansLoaded = false;
  private loggedOnce = false;
  /** How many times the snapshot was built (tests and the benchmark read it). */
  builds = 0;
  /** How many filter changes were applied (each costs only the filters that changed). */
  manualBuilds = 0;
  /** How many times membership changed and was published to the log. */
  publishes = 0;
  /** Members rendered into JSON, in total (the benchmark reads it). */
  rendered = 0;
  private budgetSecond = -1;
  private budgetLeft = RENDER_BUDGET;

  constructor(
    private readonly state: FirewallState,
    private readonly bans: BanStore,
    private readonly log: DecisionLog,
    private readonly clock: Clock,
  ) {
    bans.onChange((change) => {
      if (change.reset) this.bansLoaded = false;
      else this.pending.push(change);
    });
  }

  /** The clock's time (what durations are judged against). */
  now(): number {
    return this.clock.now();
  }

  /** The snapshot for a poll now, rebuilt first only when something changed or durations ticked. */
  get(): DecisionSnapshot {
    const now = this.clock.now();
    const changed =
      !this.bansLoaded ||
      this.pending.length > 0 ||
      this.unlogged.size > 0 ||
      this.state.revision !== this.revision ||
      now >= this.expiries.nextAt();
    const ticked = this.published.hasTicking && now - (this.current?.builtAt ?? 0) >= TICK_MS;
    if (!this.current || changed || ticked) this.current = this.build(now);
    return this.current;
  }

  private build(now: number): DecisionSnapshot {
    const previousVersion = this.current?.version ?? this.log.version;
    if (this.state.revision !== this.revision) this.applyFilters(this.state.filters);
    if (!this.bansLoaded) this.loadBans(now);
    else this.applyBanChanges(now);
    for (const ban of this.expiries.popExpired(now)) this.published.clearBan(ban);
    for (const [identity, key] of this.published.takeTouched()) this.unlogged.set(identity, key);
    let version: number;
    if (!this.loggedOnce) {
      // At start nothing in memory knows what changed while the server was stopped: compare it all.
      const all = new Map([...this.published.plain.values()].map((member) => [member.identity, member.key]));
      version = this.log.publish(all, now);
      this.loggedOnce = true;
    } else {
      const added = new Map<string, DecisionKey>();
      const gone = new Set<string>();
      for (const [identity, key] of this.unlogged) {
        if (this.published.plain.has(identity)) added.set(identity, key);
        else gone.add(identity);
      }
      const logged = this.current
        ? this.log.tryPublishChanges(added, gone, now)
        : this.log.publishChanges(added, gone, now);
      if (logged === undefined) {
        // The lock is held: the previous snapshot (which the log covers) serves until the next poll retries.
        this.deferredBuilds++;
        return this.current!;
      }
      version = logged;
    }
    this.unlogged.clear();
    if (version !== previousVersion) this.publishes++;
    this.render(now);
    this.builds++;
    const parts = this.published.plain.parts();
    const count = this.published.size;
    let expanded: { parts: readonly Buffer[]; count: number } | undefined;
    const built = this.published.expandedIfBuilt();
    if (built) expanded = { parts: built.parts(), count: built.size };
    const snapshot: DecisionSnapshot = {
      version,
      parts,
      count,
      builtAt: now,
      // The expanded form is captured with the snapshot once it exists; before that, the first
      // expanding poll builds it from the current set (this snapshot is the current one then).
      expanded: () => {
        if (!expanded) {
          const form = this.published.expandedForm(now, TICK_MS, RENDER_BUDGET);
          expanded = { parts: form.parts(), count: form.size };
        }
        return expanded;
      },
    };
    return snapshot;
  }

  /** Renders what changed, and ticking chunks within this second's budget (shared by every build in the second). */
  private render(now: number): void {
    const second = Math.floor(now / 1000);
    if (second !== this.budgetSecond) {
      this.budgetSecond = second;
      this.budgetLeft = RENDER_BUDGET;
    }
    const rendered = this.published.render(now, TICK_MS, this.budgetLeft);
    this.budgetLeft = Math.max(0, this.budgetLeft - rendered);
    this.rendered += rendered;
  }

  /** Applies the filters whose deny list changed since the last revision (the others cost a string comparison). */
  private applyFilters(filters: readonly NetworkFilter[]): void {
    this.revision = this.state.revision;
    this.manualBuilds++;
    const next = new Map<number, { deny: string; values: string[] }>();
    for (const filter of filters) {
      const before = this.filterValues.get(filter.id);
      if (before && before.deny === filter.deny) {
        next.set(filter.id, before);
        continue;
      }
      const values = filterBanValues(filter);
      for (const value of before?.values ?? []) this.published.removeFilterValue(value);
      for (const value of values) this.published.addFilterValue(value);
      next.set(filter.id, { deny: filter.deny, values });
    }
    for (const [id, before] of this.filterValues) {
      if (next.has(id)) continue;
      for (const value of before.values) this.published.removeFilterValue(value);
    }
    this.filterValues = next;
  }

  /** Reads every active ban from the store (at start, and after the store re-read everything). */
  private loadBans(now: number): void {
    this.pending = [];
    this.expiries.clear();
    this.published.clearBans();
    for (const ban of this.bans.active()) this.addBan(ban, now);
    this.bansLoaded = true;
  }

  private applyBanChanges(now: number): void {
    for (const change of this.pending) {
      for (const ban of change.removed) this.published.clearBan(ban);
      for (const ban of change.added) this.addBan(ban, now);
    }
    this.pending = [];
  }

  private addBan(ban: ActiveBan, now: number): void {
    if (ban.expiresAt <= now) return;
    this.published.setBan(ban);
    this.expiries.push(ban);
  }
}
