import type { Clock } from '../clock.ts';
import { parseCidr, type Cidr } from '../net/cidr.ts';
import type { ActiveBan, BanStore } from '../firewall/ban-store.ts';
import {
  decisionParts,
  identityOf,
  MANUAL_DURATION,
  MANUAL_SCENARIO,
  secondsLeft,
  type DecisionKey,
  type DecisionParts,
} from '../firewall/decisions.ts';
import type { FirewallState } from '../firewall/firewall-state.ts';
import { manualBanValues } from '../firewall/filters.ts';
import { expandRange } from '../firewall/range-expansion.ts';
import type { DecisionLog } from './decision-log.ts';

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
  /** The ban decisions' JSON joined with commas (no brackets). */
  bans: Buffer;
  banCount: number;
  /** The bans in force when built, for /v1/decisions queries. */
  activeBans: readonly ActiveBan[];
  builtAt: number;
}

/** Durations tick: a snapshot with bans is rebuilt at most this often. */
export const TICK_MS = 1000;

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

/** Full JSON (comma-joined, no brackets) of a snapshot's decisions in one form. */
export function snapshotJson(snapshot: DecisionSnapshot, expanded = false): Buffer {
  const manual = expanded ? snapshot.manual.expanded() : snapshot.manual.plain;
  if (manual.json.length === 0) return snapshot.bans;
  if (snapshot.bans.length === 0) return manual.json;
  return Buffer.concat([manual.json, Buffer.from(','), snapshot.bans]);
}

/** How many decisions a snapshot publishes in one form. */
export function snapshotCount(snapshot: DecisionSnapshot, expanded = false): number {
  return (expanded ? snapshot.manual.expanded() : snapshot.manual.plain).entries.length + snapshot.banCount;
}

/**
 * Builds the decision snapshot once per change (filters, fail2ban rules, a ban added or
 * lifted, a ban reaching its expiry) and at most once a second while ban durations tick.
 * Every poll shares it; nothing is serialised per caller. The filter part is rebuilt only when the
 * configuration changes, and each ban's JSON is prepared once around its duration, so a tick only
 * concatenates strings. Decisions are unique by (value, scenario): an id shared by two is harmless.
 */
export class DecisionSnapshotCache {
  private current: DecisionSnapshot | undefined;
  private manual: ManualSet | undefined;
  private banRevision = -1;
  private nextExpiry = Infinity;
  private hasBans = false;
  private readonly banEntries = new WeakMap<ActiveBan, DecisionEntry>();
  /** The ban entries published by the last membership change (undefined before the first build). */
  private publishedBans: Set<DecisionEntry> | undefined;
  /** How many times the snapshot was built (tests and the benchmark read it). */
  builds = 0;
  /** How many times membership changed and was published to the log. */
  publishes = 0;

  constructor(
    private readonly state: FirewallState,
    private readonly bans: BanStore,
    private readonly log: DecisionLog,
    private readonly clock: Clock,
  ) {}

  /** The snapshot for a poll now, rebuilt first only when something changed or durations ticked. */
  get(): DecisionSnapshot {
    const now = this.clock.now();
    const membershipStale = this.state.revision !== this.manual?.revision || this.bans.revision !== this.banRevision || now >= this.nextExpiry;
    const ticked = this.hasBans && now - (this.current?.builtAt ?? 0) >= TICK_MS;
    if (!this.current || membershipStale || ticked) this.current = this.build(now, membershipStale || !this.current);
    return this.current;
  }

  /** The JSON of one ban decision as of `now`. */
  banJson(ban: ActiveBan, now: number): string {
    const { parts } = this.banEntry(ban);
    return parts.head + secondsLeft(ban.expiresAt, now) + 's' + parts.tail;
  }

  private banEntry(ban: ActiveBan): DecisionEntry {
    let entry = this.banEntries.get(ban);
    if (!entry) this.banEntries.set(ban, (entry = entryOf({ value: ban.ip, scenario: `pbx/${ban.category}` })));
    return entry;
  }

  private manualSet(): ManualSet {
    if (this.manual?.revision === this.state.revision) return this.manual;
    const plain = manualForm(
      manualBanValues(this.state.filters).map((value) => ({ ...entryOf({ value, scenario: MANUAL_SCENARIO }), cidr: parseCidr(value)! })),
    );
    let expanded: ManualForm | undefined;
    return (this.manual = { revision: this.state.revision, plain, expanded: () => (expanded ??= expandedForm(plain)) });
  }

  private build(now: number, membershipStale: boolean): DecisionSnapshot {
    const previousManual = this.manual;
    const manual = this.manualSet();
    this.banRevision = this.bans.revision;
    const active = this.bans.active();
    const entries = active.map((ban) => this.banEntry(ban));
    let nextExpiry = Infinity;
    for (const ban of active) if (ban.expiresAt < nextExpiry) nextExpiry = ban.expiresAt;
    this.nextExpiry = nextExpiry;
    this.hasBans = active.length > 0;

    let version = this.current?.version ?? this.log.version;
    if (membershipStale) {
      const published = this.publishMembership(entries, manual, previousManual, now);
      if (published !== version) this.publishes++;
      version = published;
    }
    this.builds++;
    return { version, manual, bans: renderBans(active, entries, now), banCount: active.length, activeBans: active, builtAt: now };
  }

  /**
   * Tells the log what joined and left since the last build. Only the difference is handed over:
   * bans are compared by object (a Set lookup each), and only what changed is turned into
   * identities, so a change costs no per-ban string work. The first build compares everything
   * with the stored log, which may hold what changed while the server was stopped.
   */
  private publishMembership(entries: DecisionEntry[], manual: ManualSet, previousManual: ManualSet | undefined, now: number): number {
    const current = new Set(entries);
    const previous = this.publishedBans;
    this.publishedBans = current;
    if (!previous) {
      const members = new Map<string, DecisionKey>();
      for (const entry of manual.plain.entries) members.set(entry.identity, entry.key);
      for (const entry of entries) members.set(entry.identity, entry.key);
      return this.log.publish(members, now);
    }
    const added = new Map<string, DecisionKey>();
    const gone = new Set<string>();
    for (const entry of entries) if (!previous.has(entry)) added.set(entry.identity, entry.key);
    for (const entry of previous) if (!current.has(entry)) gone.add(entry.identity);
    if (manual !== previousManual) {
      const before = previousManual?.plain.identities ?? new Set<string>();
      for (const entry of manual.plain.entries) if (!before.has(entry.identity)) added.set(entry.identity, entry.key);
      for (const identity of before) if (!manual.plain.identities.has(identity)) gone.add(identity);
    }
    // A ban re-read from the database is a new object with the same identity: no change.
    for (const identity of gone) {
      if (added.has(identity)) {
        added.delete(identity);
        gone.delete(identity);
      }
    }
    return this.log.publishChanges(added, gone, now);
  }
}

/** The bans' JSON, comma-joined (one string join and one encode: cheaper than many small buffer writes). */
function renderBans(active: readonly ActiveBan[], entries: readonly DecisionEntry[], now: number): Buffer {
  const fragments = new Array<string>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { head, tail } = entries[i]!.parts;
    fragments[i] = head + secondsLeft(active[i]!.expiresAt, now) + 's' + tail;
  }
  return Buffer.from(fragments.join(','), 'latin1');
}
