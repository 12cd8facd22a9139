import type { Clock } from '../clock.ts';
import { parseCidr, type Cidr } from '../net/cidr.ts';
import { banDecisionKey, type ActiveBan, type BanChange, type BanStore } from './ban-store.ts';
import {
  decisionParts,
  identityOf,
  MANUAL_DURATION,
  MANUAL_SCENARIO,
  secondsLeft,
  type DecisionKey,
  type DecisionParts,
} from './decisions.ts';
import type { FirewallState } from './firewall-state.ts';
import { manualBanValues } from './filters.ts';
import { expandRange } from './range-expansion.ts';
import type { DecisionLog } from './decision-log.ts';
import { ExpiryQueue } from './expiry-queue.ts';

/** One published decision with its identity and prepared JSON pieces. */
export interface DecisionEntry {
  key: DecisionKey;
  identity: string;
  parts: DecisionParts;
}

/** The filter-derived decisions of one configuration revision, in one output form. */
export interface ManualForm {
  entries: Array<DecisionEntry & { cidr: Cidr }>;
  /** Their JSON joined with commas (no brackets). */
  json: Buffer;
  identities: ReadonlySet<string>;
}

/** The filter-derived decisions of one configuration revision; shared by every snapshot until it changes. */
export interface ManualSet {
  revision: number;
  plain: ManualForm;
  /** For keys with `expand_ranges`: ranges up to the limit as one Ip decision per address (made on first use). */
  expanded(): ManualForm;
}

/** The active decisions as served to every poll until the next rebuild. */
export interface DecisionSnapshot {
  /** Decision-log version of this membership. */
  version: number;
  manual: ManualSet;
  /** The bans' JSON in parts (one per non-empty chunk, comma-joined inside, no brackets). */
  banParts: readonly Buffer[];
  banCount: number;
  builtAt: number;
  /**
   * For keys with `expand_ranges`: the addresses of manual range bans within the expansion limit,
   * as Ip decisions with the ban's remaining time (made on first use; the Range decision itself
   * stays in `banParts`).
   */
  expandedRangeBans(): ManualForm;
}

/** Durations tick: a snapshot with bans is rebuilt at most this often. */
export const TICK_MS = 1000;
/** Bans are kept in this many chunks (by decision id), each rendered and compressed on its own. */
const CHUNKS = 256;
/**
 * Bans re-rendered each second for their durations, beyond the chunks a change touched. Up to
 * this many bans every duration is exact to the second; above it the oldest chunks go first, so
 * each is refreshed every (bans / budget) seconds (10 s at 100,000 bans) and a duration may be
 * that much longer than what is left. Expiry is never late: a ban that expires leaves the snapshot
 * (and is deleted) at once.
 */
export const RENDER_BUDGET = 10_000;

const COMMA = Buffer.from(',');

/** A filter-derived decision's JSON (its duration never changes). */
export const manualEntryJson = (entry: DecisionEntry) => entry.parts.head + MANUAL_DURATION + entry.parts.tail;

function manualForm(entries: Array<DecisionEntry & { cidr: Cidr }>): ManualForm {
  return { entries, json: Buffer.from(entries.map(manualEntryJson).join(',')), identities: new Set(entries.map((e) => e.identity)) };
}

function entryOf(key: DecisionKey): DecisionEntry {
  return { key, identity: identityOf(key), parts: decisionParts(key) };
}

/** The filter entries as published to expanding keys: every range within the limit becomes its addresses, once each. */
function expandedForm(plain: ManualForm): ManualForm {
  const entries: Array<DecisionEntry & { cidr: Cidr }> = [];
  const seen = new Set<string>();
  const add = (key: DecisionKey, cidr: Cidr) => {
    const entry = entryOf(key);
    if (seen.has(entry.identity)) return;
    seen.add(entry.identity);
    entries.push({ ...entry, cidr });
  };
  for (const entry of plain.entries) {
    const addresses = expandRange(entry.key.value);
    if (!addresses) add(entry.key, entry.cidr);
    else for (const value of addresses) add({ value, scenario: MANUAL_SCENARIO }, parseCidr(value)!);
  }
  return manualForm(entries);
}

/**
 * The text of a snapshot's `new` array content in one form, as the parts a poll writes in order:
 * the filter decisions, then each ban chunk, with the commas between them.
 */
export function snapshotParts(snapshot: DecisionSnapshot, expanded = false): Buffer[] {
  const manual = (expanded ? snapshot.manual.expanded() : snapshot.manual.plain).json;
  const out: Buffer[] = [];
  const extra = expanded ? [snapshot.expandedRangeBans().json] : [];
  for (const part of [manual, ...snapshot.banParts, ...extra]) {
    if (part.length === 0) continue;
    if (out.length > 0) out.push(COMMA);
    out.push(part);
  }
  return out;
}

/** The whole `new` array content (tests and small answers). */
export function snapshotJson(snapshot: DecisionSnapshot, expanded = false): Buffer {
  return Buffer.concat(snapshotParts(snapshot, expanded));
}

/** How many decisions a snapshot publishes in one form. */
export function snapshotCount(snapshot: DecisionSnapshot, expanded = false): number {
  if (!expanded) return snapshot.manual.plain.entries.length + snapshot.banCount;
  return snapshot.manual.expanded().entries.length + snapshot.banCount + snapshot.expandedRangeBans().entries.length;
}

/** Manual range bans as their addresses (each once, not those the filters already publish), with the ban's time left. */
function expandRangeBans(rangeBans: ReadonlyArray<{ ban: ActiveBan }>, skip: ReadonlySet<string>, now: number): ManualForm {
  const entries: Array<DecisionEntry & { cidr: Cidr }> = [];
  const fragments: string[] = [];
  const seen = new Set<string>(skip);
  for (const { ban } of rangeBans) {
    for (const value of expandRange(ban.ip) ?? []) {
      const entry = entryOf({ value, scenario: MANUAL_SCENARIO });
      if (seen.has(entry.identity)) continue;
      seen.add(entry.identity);
      entries.push({ ...entry, cidr: parseCidr(value)! });
      fragments.push(entry.parts.head + secondsLeft(ban.expiresAt, now) + 's' + entry.parts.tail);
    }
  }
  return { entries, json: Buffer.from(fragments.join(','), 'latin1'), identities: new Set(entries.map((e) => e.identity)) };
}

/** Bans of one chunk by identity, and their JSON as last rendered. */
interface BanChunk {
  members: Map<string, { ban: ActiveBan; entry: DecisionEntry }>;
  json: Buffer;
  renderedAt: number;
  dirty: boolean;
  /** How many members are manual range bans (expanded for some keys). */
  ranges: number;
}

const emptyChunk = (): BanChunk => ({ members: new Map(), json: Buffer.alloc(0), renderedAt: 0, dirty: false, ranges: 0 });

/**
 * Keeps the published decisions and builds the snapshot every poll shares. Nothing is serialised
 * per caller, and a change costs what it touches, not the size of the set:
 * - filter decisions are rendered once per configuration change;
 * - bans live in chunks (by decision id); a change re-renders only its chunk, ticking durations
 *   re-render at most RENDER_BUDGET bans a second (oldest chunks first), and a chunk's Buffer is
 *   compressed once and reused by every snapshot that still holds it;
 * - the ban store reports what changed, and expiries come from a queue, so membership is handed to
 *   the log as a difference without scanning every ban.
 * Decisions are unique by (value, scenario): an id shared by two is harmless.
 */
export class DecisionSnapshotCache {
  private current: DecisionSnapshot | undefined;
  private manual: ManualSet | undefined;
  private readonly chunks: BanChunk[] = Array.from({ length: CHUNKS }, emptyChunk);
  private readonly expiries = new ExpiryQueue();
  private readonly banEntries = new WeakMap<ActiveBan, DecisionEntry>();
  private pending: BanChange[] = [];
  private loaded = false;
  private banCount = 0;
  /** How many times the snapshot was built (tests and the benchmark read it). */
  builds = 0;
  /** How many times membership changed and was published to the log. */
  publishes = 0;
  /** Bans rendered into JSON, in total (the benchmark reads it). */
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
      if (change.reset) this.loaded = false;
      else this.pending.push(change);
    });
  }

  /** The snapshot for a poll now, rebuilt first only when something changed or durations ticked. */
  get(): DecisionSnapshot {
    const now = this.clock.now();
    const changed = !this.loaded || this.pending.length > 0 || this.state.revision !== this.manual?.revision || now >= this.expiries.nextAt();
    const ticked = this.banCount > 0 && now - (this.current?.builtAt ?? 0) >= TICK_MS;
    if (!this.current || changed || ticked) this.current = this.build(now);
    return this.current;
  }

  /** The JSON of one ban decision as of `now`. */
  banJson(ban: ActiveBan, now: number): string {
    const { parts } = this.banEntry(ban);
    return parts.head + secondsLeft(ban.expiresAt, now) + 's' + parts.tail;
  }

  private banEntry(ban: ActiveBan): DecisionEntry {
    let entry = this.banEntries.get(ban);
    if (!entry) this.banEntries.set(ban, (entry = entryOf(banDecisionKey(ban))));
    return entry;
  }

  private chunkOf(entry: DecisionEntry): BanChunk {
    return this.chunks[entry.parts.id % CHUNKS]!;
  }

  private manualSet(): ManualSet {
    if (this.manual?.revision === this.state.revision) return this.manual;
    const plain = manualForm(
      manualBanValues(this.state.filters).map((value) => ({ ...entryOf({ value, scenario: MANUAL_SCENARIO }), cidr: parseCidr(value)! })),
    );
    let expanded: ManualForm | undefined;
    return (this.manual = { revision: this.state.revision, plain, expanded: () => (expanded ??= expandedForm(plain)) });
  }

  private build(now: number): DecisionSnapshot {
    const previousManual = this.manual;
    const manual = this.manualSet();
    let version = this.current?.version ?? this.log.version;
    const published = this.loaded ? this.applyChanges(now, manual, previousManual) : this.load(now, manual);
    if (published !== version) this.publishes++;
    version = published;
    this.render(now);
    const banParts: Buffer[] = [];
    const rangeBans: Array<{ ban: ActiveBan }> = [];
    for (const chunk of this.chunks) {
      if (chunk.json.length > 0) banParts.push(chunk.json);
      if (chunk.ranges > 0) for (const member of chunk.members.values()) if (member.ban.ip.includes('/')) rangeBans.push(member);
    }
    this.builds++;
    let expandedRangeBans: ManualForm | undefined;
    const skip = manual.expanded;
    return {
      version,
      manual,
      banParts,
      banCount: this.banCount,
      builtAt: now,
      expandedRangeBans: () => (expandedRangeBans ??= rangeBans.length ? expandRangeBans(rangeBans, skip().identities, now) : manualForm([])),
    };
  }

  /** Fills every chunk from the ban store and compares the whole set with the stored log (at start and after a reload). */
  private load(now: number, manual: ManualSet): number {
    this.pending = [];
    this.expiries.clear();
    for (const chunk of this.chunks) chunk.members.clear();
    const members = new Map<string, DecisionKey>();
    for (const entry of manual.plain.entries) members.set(entry.identity, entry.key);
    for (const ban of this.bans.active()) {
      const entry = this.banEntry(ban);
      this.chunkOf(entry).members.set(entry.identity, { ban, entry });
      this.expiries.push(ban);
      members.set(entry.identity, entry.key);
    }
    this.banCount = 0;
    for (const chunk of this.chunks) {
      chunk.dirty = true;
      this.banCount += chunk.members.size;
    }
    this.loaded = true;
    return this.log.publish(members, now);
  }

  /** Applies the ban store's changes, the expiries due and a new filter set; publishes the difference. */
  private applyChanges(now: number, manual: ManualSet, previousManual: ManualSet | undefined): number {
    const touched = new Map<string, DecisionKey>();
    const drop = (ban: ActiveBan) => {
      const entry = this.banEntry(ban);
      const chunk = this.chunkOf(entry);
      if (chunk.members.get(entry.identity)?.ban !== ban) return;
      chunk.members.delete(entry.identity);
      chunk.dirty = true;
      touched.set(entry.identity, entry.key);
    };
    for (const change of this.pending) {
      for (const ban of change.removed) drop(ban);
      for (const ban of change.added) {
        if (ban.expiresAt <= now) continue;
        const entry = this.banEntry(ban);
        const chunk = this.chunkOf(entry);
        chunk.members.set(entry.identity, { ban, entry });
        chunk.dirty = true;
        touched.set(entry.identity, entry.key);
        this.expiries.push(ban);
      }
    }
    this.pending = [];
    for (const ban of this.expiries.popExpired(now)) drop(ban);

    // A filter entry and a manual ban of the same value share an identity: present while either is.
    const present = (identity: string, key: DecisionKey) =>
      manual.plain.identities.has(identity) || this.chunks[decisionParts(key).id % CHUNKS]!.members.has(identity);
    if (manual !== previousManual) {
      for (const entry of manual.plain.entries) touched.set(entry.identity, entry.key);
      for (const entry of previousManual?.plain.entries ?? []) touched.set(entry.identity, entry.key);
    }
    const added = new Map<string, DecisionKey>();
    const gone = new Set<string>();
    for (const [identity, key] of touched) {
      if (present(identity, key)) added.set(identity, key);
      else gone.add(identity);
    }
    this.banCount = 0;
    for (const chunk of this.chunks) this.banCount += chunk.members.size;
    return this.log.publishChanges(added, gone, now);
  }

  /**
   * Re-renders the chunks a change touched, then the stalest others while this second's budget
   * lasts: RENDER_BUDGET bans a second, however many builds the second holds.
   */
  private render(now: number): void {
    const second = Math.floor(now / 1000);
    if (second !== this.budgetSecond) {
      this.budgetSecond = second;
      this.budgetLeft = RENDER_BUDGET;
    }
    const renderChunk = (chunk: BanChunk) => {
      const fragments: string[] = [];
      chunk.ranges = 0;
      for (const { ban, entry } of chunk.members.values()) {
        fragments.push(entry.parts.head + secondsLeft(ban.expiresAt, now) + 's' + entry.parts.tail);
        if (ban.ip.includes('/')) chunk.ranges++;
      }
      chunk.json = fragments.length ? Buffer.from(fragments.join(','), 'latin1') : Buffer.alloc(0);
      chunk.renderedAt = now;
      chunk.dirty = false;
      this.budgetLeft -= fragments.length;
      this.rendered += fragments.length;
    };
    for (const chunk of this.chunks) if (chunk.dirty) renderChunk(chunk);
    if (this.budgetLeft <= 0) return;
    const stale = this.chunks.filter((chunk) => chunk.members.size > 0 && now - chunk.renderedAt >= TICK_MS).sort((a, b) => a.renderedAt - b.renderedAt);
    for (const chunk of stale) {
      if (this.budgetLeft <= 0) break;
      renderChunk(chunk);
    }
  }
}
