import { parseCidr, type Cidr } from '../../net/cidr.ts';
import { type ActiveBan, banDecisionKey } from '../bans/index.ts';
import { ChunkedDecisions } from './chunked-decisions.ts';
import {
  type DecisionKey,
  decisionParts,
  type DecisionParts,
  identityOf,
  MANUAL_DURATION,
  MANUAL_DURATION_SECONDS,
  MANUAL_SCENARIO,
  secondsLeft,
} from '../model/index.ts';
import { expandRange } from './range-expansion.ts';

/**
 * One published decision, unique by (value, scenario), and what publishes it: filter deny entries
 * (a count: the same value may be denied by several filters) and at most one ban.
 */
export interface Member {
  key: DecisionKey;
  identity: string;
  parts: DecisionParts;
  filterRefs: number;
  ban: ActiveBan | undefined;
  /** Parsed on first use by a `/v1/decisions` query. */
  cidr?: Cidr;
}

/** An address published to `expand_ranges` keys, and the members (ranges or the address itself) it comes from. */
interface ExpandedMember {
  key: DecisionKey;
  identity: string;
  parts: DecisionParts;
  sources: Set<Member>;
}

/**
 * Seconds a member has left, the longest of its sources (ARCHITECTURE "Decision id": one decision
 * per (value, scenario), with the longest remaining duration). A filter entry never ends.
 */
function memberSeconds(member: Member, now: number): number {
  const banLeft = member.ban ? secondsLeft(member.ban.expiresAt, now) : 0;
  return member.filterRefs > 0 ? Math.max(MANUAL_DURATION_SECONDS, banLeft) : banLeft;
}

/** A filter entry keeps its fixed duration text; a ban shows its whole seconds left. */
function durationText(seconds: number): string {
  return seconds === MANUAL_DURATION_SECONDS ? MANUAL_DURATION : `${seconds}s`;
}

/** A member's decision JSON as of `now`. */
export const renderMember = (member: Member, now: number) =>
  member.parts.head + durationText(memberSeconds(member, now)) + member.parts.tail;

function renderExpanded(member: ExpandedMember, now: number): string {
  let seconds = 0;
  for (const source of member.sources) seconds = Math.max(seconds, memberSeconds(source, now));
  return member.parts.head + durationText(seconds) + member.parts.tail;
}

const ticks = (member: Member) => member.ban !== undefined;
const expandedTicks = (member: ExpandedMember) => [...member.sources].some(ticks);

/** The addresses a member is published as to `expand_ranges` keys: a range within the limit as its addresses, else itself. */
function expansionOf(member: Member): string[] {
  return expandRange(member.key.value) ?? [member.key.value];
}

/**
 * The published decision set, kept incrementally: filter entries and bans feed one member per
 * (value, scenario), rendered in chunks. Every change reports the identities it touched, so the
 * decision log gets a difference, never a scan of the whole set. The form for `expand_ranges`
 * keys is built on first use, then kept in step the same way.
 */
export class PublishedDecisions {
  readonly plain = new ChunkedDecisions<Member>(renderMember);
  private expanded: ChunkedDecisions<ExpandedMember> | undefined;
  /** Members whose value is a range: what a single-address `/v1/decisions` question also checks. */
  readonly ranges = new Set<Member>();
  /** Every scenario ever published (this PBX's few, plus upstream ones): a single-address question looks each up. */
  readonly scenarios = new Set<string>();
  /** Identities whose membership may have changed since the last `takeTouched()`. */
  private touched = new Map<string, DecisionKey>();

  get size(): number {
    return this.plain.size;
  }

  get(key: DecisionKey): Member | undefined {
    return this.plain.get(identityOf(key));
  }

  addFilterValue(value: string): void {
    const member = this.member({ value, scenario: MANUAL_SCENARIO });
    member.filterRefs++;
    this.changed(member);
  }

  removeFilterValue(value: string): void {
    const member = this.plain.get(identityOf({ value, scenario: MANUAL_SCENARIO }));
    if (!member) return;
    member.filterRefs--;
    this.changed(member);
  }

  setBan(ban: ActiveBan): void {
    const member = this.member(banDecisionKey(ban));
    member.ban = ban;
    this.changed(member);
  }

  /** Removes `ban` if it is still the one its member holds (a later ban of the same identity replaced it otherwise). */
  clearBan(ban: ActiveBan): void {
    const member = this.plain.get(identityOf(banDecisionKey(ban)));
    if (!member || member.ban !== ban) return;
    member.ban = undefined;
    this.changed(member);
  }

  /** Drops every ban (before the ban store's set is read again). */
  clearBans(): void {
    for (const member of [...this.plain.values()]) {
      if (!member.ban) continue;
      member.ban = undefined;
      this.changed(member);
    }
  }

  /** The identities touched since the last call, with their keys. */
  takeTouched(): Map<string, DecisionKey> {
    const touched = this.touched;
    this.touched = new Map();
    return touched;
  }

  /** Re-renders what changed and what ticked, within `budget` members; returns how many were rendered. */
  render(now: number, tickMs: number, budget: number): number {
    const rendered = this.plain.render(now, tickMs, budget);
    return rendered + (this.expanded?.render(now, tickMs, Math.max(0, budget - rendered)) ?? 0);
  }

  get hasTicking(): boolean {
    return this.plain.hasTicking;
  }

  /** The form for `expand_ranges` keys, if it was asked for (undefined until then). */
  expandedIfBuilt(): ChunkedDecisions<ExpandedMember> | undefined {
    return this.expanded;
  }

  /** The form for `expand_ranges` keys, built from the whole set on first use. */
  expandedForm(now: number, tickMs: number, budget: number): ChunkedDecisions<ExpandedMember> {
    if (!this.expanded) {
      this.expanded = new ChunkedDecisions<ExpandedMember>(renderExpanded);
      for (const member of this.plain.values()) this.expand(member, true);
      this.expanded.render(now, tickMs, budget);
    }
    return this.expanded;
  }

  /** Whether an `expand_ranges` key is served this identity now. */
  expandedHas(identity: string): boolean {
    return this.expanded?.has(identity) ?? false;
  }

  private member(key: DecisionKey): Member {
    const identity = identityOf(key);
    let member = this.plain.get(identity);
    if (!member) {
      member = { key, identity, parts: decisionParts(key), filterRefs: 0, ban: undefined };
      this.scenarios.add(key.scenario);
      if (key.value.includes('/')) this.ranges.add(member);
    }
    return member;
  }

  /** Puts a member where its sources say (or removes it when it has none) and keeps the expanded form in step. */
  private changed(member: Member): void {
    this.touched.set(member.identity, member.key);
    const present = member.filterRefs > 0 || member.ban !== undefined;
    if (present) this.plain.put(member, ticks(member));
    else {
      this.plain.delete(member.identity);
      this.ranges.delete(member);
    }
    if (this.expanded) this.expand(member, present);
  }

  private expand(member: Member, present: boolean): void {
    const expanded = this.expanded!;
    for (const value of expansionOf(member)) {
      const key = { ...member.key, value }; // an upstream decision keeps its origin
      const identity = identityOf(key);
      let entry = expanded.get(identity);
      if (!present) {
        if (!entry) continue;
        entry.sources.delete(member);
        if (entry.sources.size === 0) expanded.delete(identity);
        else expanded.put(entry, expandedTicks(entry));
        continue;
      }
      if (!entry)
        entry = {
          key,
          identity,
          parts: value === member.key.value ? member.parts : decisionParts(key),
          sources: new Set(),
        };
      entry.sources.add(member);
      expanded.put(entry, expandedTicks(entry));
    }
  }
}

/** A member's range, parsed once. */
export function memberCidr(member: Member): Cidr {
  return (member.cidr ??= parseCidr(member.key.value)!);
}
