import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import { networkText, parseCidr } from '../../net/cidr.ts';
import type { ActiveBan, BanChange, BanStore } from '../bans/index.ts';
import { describeHoles, type FirewallState } from '../filters/index.ts';
import { BAN_CATEGORIES, type BanCategory } from '../model/index.ts';
import { ruleFor } from './ban-policy.ts';

/**
 * The protected addresses (registered phones) inside `range`, each as a short text, or null when
 * none. The escalation never bans a range holding one. Wired by the server; none by default.
 */
export type ProtectedCheck = (range: string) => string[] | null;

export const NOTHING_PROTECTED: ProtectedCheck = () => null;

/** At most this many blocking addresses are named in a reason (it holds 200 characters). */
const NAMED_HOLDERS = 3;

/** `1 h`, `30 min`, `2 d`, `90 s`: a window as a reason shows it. */
export function windowText(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Who lifted a single ban that a range replaced, as the history shows it. */
export const escalatedInto = (range: string) => `escalated into ${range}`;

const isCategory = (kind: string): kind is BanCategory => (BAN_CATEGORIES as readonly string[]).includes(kind);

/**
 * Neighbourhood escalation (fail2ban #3548): scanners rotate through a /24 or a /48 one address at
 * a time. When `escalationBans` distinct addresses of one range are banned in one category within
 * `escalationWindow` seconds, one Range ban of that category replaces their single bans. A range
 * holding a never-banned (whitelisted, trusted, loopback) or protected address is never banned:
 * the singles stay and the newest one's reason says why.
 */
export class NeighbourhoodEscalation {
  /** Single automatic bans in force by `category range` (for the prefixes of `indexedRevision`). */
  private readonly index = new Map<string, Set<ActiveBan>>();
  private indexedRevision = -1;

  constructor(
    private readonly state: FirewallState,
    private readonly bans: BanStore,
    private readonly clock: Clock,
    private readonly isProtected: ProtectedCheck = NOTHING_PROTECTED,
    private readonly logger?: Pick<Logger, 'info' | 'warn'>,
  ) {
    bans.onChange((change) => this.follow(change));
  }

  /** The range `ip` (a single address) belongs to under the current prefixes, or undefined. */
  rangeOf(ip: string): string | undefined {
    const cidr = ip.includes('/') ? undefined : parseCidr(ip);
    if (!cidr) return undefined;
    const settings = this.state.settings;
    const prefix = cidr[0].kind() === 'ipv4' ? settings.escalationIpv4Prefix : settings.escalationIpv6Prefix;
    return networkText([cidr[0], prefix]);
  }

  /** The escalated Range ban of `category` in force over `ip`, if any: failures inside it need no new single ban. */
  coveringBan(category: BanCategory, ip: string): ActiveBan | undefined {
    if (!this.state.settings.escalation) return undefined;
    const range = this.rangeOf(ip);
    return range ? this.bans.get(category, range) : undefined;
  }

  /**
   * Called after a single automatic ban: escalates its range when enough of its neighbours are
   * banned too. Returns the Range ban, or undefined (off, too few, or refused).
   */
  consider(ban: ActiveBan): ActiveBan | undefined {
    const settings = this.state.settings;
    if (!settings.escalation || !isCategory(ban.category)) return undefined;
    const range = this.rangeOf(ban.ip);
    if (!range || this.bans.get(ban.category, range)) return undefined;
    this.fresh();
    const now = this.clock.now();
    const since = now - settings.escalationWindow * 1000;
    // Every single ban of the range in force is replaced; those that started within the window count.
    const singles = this.inForce(`${ban.category} ${range}`, now);
    const counted = singles.filter((b) => b.bannedAt > since).length;
    if (counted < settings.escalationBans) return undefined;
    const refusal = this.refusal(range);
    try {
      if (refusal) return this.refuse(ban, range, refusal, counted);
      const reason = `escalated: ${counted} bans in ${range} within ${windowText(settings.escalationWindow)}`;
      const expiresAt = Math.max(
        now + ruleFor(settings, ban.category).bantime * 1000,
        ...singles.map((b) => b.expiresAt),
      );
      const banNumber = this.bans.earlierBans(range, ban.category) + 1;
      const escalated = this.bans.escalate(
        { category: ban.category, ip: range, reason, expiresAt, banNumber },
        singles,
        escalatedInto(range),
      );
      this.logger?.info({ range, category: ban.category, replaced: singles.length }, `bans ${reason}`);
      return escalated;
    } catch (error) {
      // Nothing was written (one transaction): the singles stay, and the next ban in the range tries again.
      this.logger?.warn({ err: error, range }, 'ban escalation failed; the single bans stay');
      return undefined;
    }
  }

  /** The singles stay: the newest one's reason (and the log) says why its range was not banned. */
  private refuse(ban: ActiveBan, range: string, refusal: string, counted: number): undefined {
    const note = `; not escalated to ${range}: it holds ${refusal}`;
    this.bans.setReason(ban, `${ban.reason.slice(0, Math.max(0, 200 - note.length))}${note}`);
    this.logger?.info({ range, category: ban.category, bans: counted }, `ban not escalated: ${range} holds ${refusal}`);
    return undefined;
  }

  /** What in `range` may never be banned (`198.51.100.7 (whitelisted), 198.51.100.9 (protected)`), or undefined. */
  private refusal(range: string): string | undefined {
    const screen = this.state.neverBanned.screen(range);
    const holes = screen.kind === 'clear' ? [] : screen.kind === 'carved' ? screen.holes : [screen.holder];
    const named = [
      ...holes.map((hole) => describeHoles([hole])),
      ...(this.isProtected(range) ?? []).map((address) => `${address} (protected)`),
    ];
    if (!named.length) return undefined;
    const more = named.length - NAMED_HOLDERS;
    return named.slice(0, NAMED_HOLDERS).join(', ') + (more > 0 ? ` and ${more} more` : '');
  }

  /** The bans of one index entry still in force; the others leave it (expiry is no change the store reports). */
  private inForce(key: string, now: number): ActiveBan[] {
    const set = this.index.get(key);
    if (!set) return [];
    for (const ban of set) if (ban.expiresAt <= now || this.bans.get(ban.category, ban.ip) !== ban) set.delete(ban);
    if (set.size === 0) this.index.delete(key);
    return [...set];
  }

  /** Drops ended bans from every index entry (run with the store's sweep). */
  sweep(): void {
    const now = this.clock.now();
    for (const key of [...this.index.keys()]) this.inForce(key, now);
  }

  /** Rebuilds the index when the prefixes may have changed (any settings reload). */
  private fresh(): void {
    if (this.indexedRevision === this.state.revision) return;
    this.index.clear();
    this.indexedRevision = this.state.revision;
    for (const ban of this.bans.active()) this.add(ban);
  }

  private follow(change: BanChange): void {
    if (change.reset) this.indexedRevision = -1;
    if (this.indexedRevision !== this.state.revision) return;
    for (const ban of change.removed) {
      const key = this.key(ban);
      if (key) this.index.get(key)?.delete(ban);
    }
    for (const ban of change.added) this.add(ban);
  }

  private add(ban: ActiveBan): void {
    const key = this.key(ban);
    if (!key) return;
    let set = this.index.get(key);
    if (!set) this.index.set(key, (set = new Set()));
    set.add(ban);
  }

  private key(ban: ActiveBan): string | undefined {
    if (!isCategory(ban.category)) return undefined;
    const range = this.rangeOf(ban.ip);
    return range && `${ban.category} ${range}`;
  }
}
