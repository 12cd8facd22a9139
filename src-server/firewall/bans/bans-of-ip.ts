/**
 * The bans one address holds, at most one per kind: almost always one. A `Map` per address cost
 * about 190 bytes (its hash table is allocated for 4 entries), some 19 MB at 100,000 banned
 * addresses; a small array costs a third of that, and a kind is found by a scan of one or two.
 */
/** A ban as this holder needs it: its kind, and when it ends. */
interface KindedBan {
  category: string;
  expiresAt: number;
}

export class BansOfIp<Ban extends KindedBan> {
  private bans: Ban[] = [];

  get size(): number {
    return this.bans.length;
  }

  get(kind: Ban['category']): Ban | undefined {
    return this.bans.find((ban) => ban.category === kind);
  }

  /** Holds `ban` as its kind's ban, in place of the one it held. */
  set(ban: Ban): void {
    const at = this.bans.findIndex((held) => held.category === ban.category);
    if (at >= 0) this.bans[at] = ban;
    else this.bans = this.bans.concat(ban); // sized to fit: `push` or a spread reserves room for 17
  }

  delete(kind: Ban['category']): void {
    const at = this.bans.findIndex((ban) => ban.category === kind);
    if (at >= 0) this.bans = this.bans.filter((_, index) => index !== at);
  }

  values(): readonly Ban[] {
    return this.bans;
  }

  /** Drops the bans that ended by `now`. */
  dropEndedBy(now: number): void {
    if (this.bans.some((ban) => ban.expiresAt <= now)) this.bans = this.bans.filter((ban) => ban.expiresAt > now);
  }
}
