import type ipaddr from 'ipaddr.js';
import type { Clock } from '../clock.ts';
import { parseCidr, type Cidr } from '../net/cidr.ts';
import type { ActiveBan, BanStore } from '../firewall/ban-store.ts';
import { decisionParts, MANUAL_DURATION, MANUAL_SCENARIO, secondsLeft, type DecisionKey } from '../firewall/decisions.ts';
import type { FirewallState } from '../firewall/firewall-state.ts';
import { manualBanValues } from '../firewall/filters.ts';
import type { DecisionLog } from './decision-log.ts';

/** The active decisions as served to every poll until the next rebuild. */
export interface DecisionSnapshot {
  /** Decision-log version of this membership. */
  version: number;
  count: number;
  /** The decisions' JSON joined with commas, without brackets: the `new` array's content. */
  json: Buffer;
  builtAt: number;
}

/** Durations tick: a snapshot with bans is rebuilt at most this often. */
export const TICK_MS = 1000;

type Parts = { id: number; head: string; tail: string };

/**
 * Builds the decision snapshot once per change (filters, fail2ban rules, a ban added or
 * lifted, a ban reaching its expiry) and at most once a second while ban durations tick.
 * Every poll shares it; nothing is serialised per caller. Each decision's JSON is prepared once
 * around its duration, so a tick only concatenates strings.
 */
export class DecisionSnapshotCache {
  private current: DecisionSnapshot | undefined;
  private configRevision = -1;
  private banRevision = -1;
  private nextExpiry = Infinity;
  private hasBans = false;
  private manual: Array<{ parts: Parts; key: DecisionKey; json: string; cidr: Cidr }> = [];
  private readonly banParts = new WeakMap<ActiveBan, Parts>();
  /** How many times the snapshot was built (tests and the benchmark read it). */
  builds = 0;

  constructor(
    private readonly state: FirewallState,
    private readonly bans: BanStore,
    private readonly log: DecisionLog,
    private readonly clock: Clock,
  ) {}

  /** The snapshot for a poll now, rebuilt first only when something changed or durations ticked. */
  get(): DecisionSnapshot {
    const now = this.clock.now();
    const membershipStale =
      this.state.revision !== this.configRevision || this.bans.revision !== this.banRevision || now >= this.nextExpiry;
    const ticked = this.hasBans && now - (this.current?.builtAt ?? 0) >= TICK_MS;
    if (!this.current || membershipStale || ticked) this.current = this.build(now, membershipStale || !this.current);
    return this.current;
  }

  /**
   * The active decisions that apply to one address, as JSON (CrowdSec live mode asks
   * `GET /v1/decisions?ip=`): filter entries whose range holds it, and its bans.
   */
  decisionsFor(address: ipaddr.IPv4 | ipaddr.IPv6): string[] {
    this.get();
    const now = this.clock.now();
    const out: string[] = [];
    for (const entry of this.manual) {
      if (entry.cidr[0].kind() === address.kind() && (address as ipaddr.IPv4).match(entry.cidr as [ipaddr.IPv4, number])) out.push(entry.json);
    }
    for (const ban of this.bans.forIp(address.toString())) {
      const parts = decisionParts({ value: ban.ip, scenario: `pbx/${ban.category}` });
      out.push(parts.head + secondsLeft(ban.expiresAt, now) + 's' + parts.tail);
    }
    return out;
  }

  private build(now: number, membershipStale: boolean): DecisionSnapshot {
    if (this.state.revision !== this.configRevision) {
      this.manual = manualBanValues(this.state.filters).map((value) => {
        const key: DecisionKey = { value, scenario: MANUAL_SCENARIO };
        const parts = decisionParts(key);
        return { parts, key, json: parts.head + MANUAL_DURATION + parts.tail, cidr: parseCidr(value)! };
      });
      this.configRevision = this.state.revision;
    }
    this.banRevision = this.bans.revision;
    const active = this.bans.active();

    const fragments: string[] = [];
    const seen = new Set<number>();
    const members = membershipStale ? new Map<number, DecisionKey>() : undefined;
    for (const entry of this.manual) {
      if (seen.has(entry.parts.id)) continue;
      seen.add(entry.parts.id);
      fragments.push(entry.json);
      members?.set(entry.parts.id, entry.key);
    }
    let nextExpiry = Infinity;
    for (const ban of active) {
      let parts = this.banParts.get(ban);
      if (!parts) this.banParts.set(ban, (parts = decisionParts({ value: ban.ip, scenario: `pbx/${ban.category}` })));
      if (seen.has(parts.id)) continue;
      seen.add(parts.id);
      if (ban.expiresAt < nextExpiry) nextExpiry = ban.expiresAt;
      fragments.push(parts.head + secondsLeft(ban.expiresAt, now) + 's' + parts.tail);
      members?.set(parts.id, { value: ban.ip, scenario: `pbx/${ban.category}` });
    }
    this.nextExpiry = nextExpiry;
    this.hasBans = active.length > 0;
    const version = members ? this.log.publish(members) : this.current!.version;
    this.builds++;
    return { version, count: fragments.length, json: Buffer.from(fragments.join(',')), builtAt: now };
  }
}
