import type { Clock } from '../../clock.ts';
import { writeWithShortWait } from '../../storage/background-write.ts';
import { statement, type Db } from '../../storage/database.ts';
import { cidrContains, parseCidr, type Cidr } from '../../net/cidr.ts';
import { BansOfIp } from './bans-of-ip.ts';
import type { BanKind, DecisionKey } from '../model/index.ts';

/** The store's kinds: this server's own (`BanKind`, rows in firewall_bans) and an upstream LAPI's decisions (memory only). */
export type StoreKind = BanKind | 'upstream';

/** A ban in force: (category, ip) until expiresAt (epoch ms). */
export interface ActiveBan {
  id: number;
  /** The automatic-ban category, `manual` for an operator's ban (which may be a CIDR), `upstream` for a LAPI's decision. */
  category: StoreKind;
  ip: string;
  reason: string;
  bannedAt: number;
  expiresAt: number;
  /** Manual bans: the services (SIP, WEB, AMI, IAX) the operator chose; null means all. */
  services?: string[] | null;
  /** Automatic bans: the rank among this address's bans (1 for the first; "3rd ban"). */
  banNumber?: number;
  /** Upstream bans: the LAPI decision's origin (`crowdsec`, `cscli`, `CAPI`...) and scenario, republished as they are. */
  origin?: string;
  scenario?: string;
}

/** The decision a ban publishes: `pbx/<category>` with this PBX's origin, or an upstream decision's own scenario and origin. */
export const banDecisionKey = (ban: ActiveBan): DecisionKey =>
  ban.scenario
    ? { value: ban.ip, scenario: ban.scenario, origin: ban.origin }
    : { value: ban.ip, scenario: `pbx/${ban.category as BanKind}` };

/** The Range ban that replaces single bans of its neighbourhood (BanStore.escalate). */
export interface EscalatedRange {
  category: BanKind;
  ip: string;
  reason: string;
  expiresAt: number;
  banNumber: number;
}

/** What one change did to the bans in memory. */
export interface BanChange {
  added: ActiveBan[];
  removed: ActiveBan[];
  /** Everything was re-read: listeners start over from `active()`. */
  reset: boolean;
}

/** A row of `firewall_bans` (times in epoch ms; `services` a JSON list, null for all). */
export interface BanRow {
  id: number;
  category: BanKind;
  ip: string;
  reason: string;
  banned_at: number;
  expires_at: number;
  lifted_at: number | null;
  services: string | null;
  banned_by: string;
  lifted_by: string | null;
  ban_number: number;
  /** How many single bans this Range ban replaced (neighbourhood escalation); null otherwise. */
  escalated_from?: number | null;
}

/** The columns the store reads back (some queries leave `ban_number` out). */
type ActiveBanRow = Pick<BanRow, 'id' | 'category' | 'ip' | 'reason' | 'banned_at' | 'expires_at' | 'services'> &
  Partial<Pick<BanRow, 'ban_number'>>;

/** A manual ban may leave some services open; WEB (this server) is refused unless left out. */
const blocksWeb = (ban: ActiveBan): boolean => !ban.services || ban.services.includes('WEB');

const toBan = (row: ActiveBanRow): ActiveBan => ({
  id: row.id,
  category: row.category,
  ip: row.ip,
  reason: row.reason,
  bannedAt: row.banned_at,
  expiresAt: row.expires_at,
  services: row.services ? (JSON.parse(row.services) as string[]) : null,
  banNumber: row.ban_number ?? 1,
});

/** A manual ban as the record stores it. */
/** An import being written (ban_import_journal): undone at start-up if the process ended meanwhile. */
interface ImportJournalRow {
  id: number;
  started_at: number;
  banned_by: string;
  after_id: number;
}

/** Who ended a manual ban that a newer one of the same value replaces. */
const replacedBy = (by: string) => `${by} (replaced)`;

interface ManualRow {
  value: string;
  reason: string;
  services: readonly string[] | null;
  by: string;
}

const INSERT_AUTOMATIC =
  'INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, ban_number) VALUES (?, ?, ?, ?, ?, ?)';
const INSERT_MANUAL =
  "INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, services, banned_by) VALUES ('manual', ?, ?, ?, ?, ?, ?)";
const INSERT_ESCALATED =
  'INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, ban_number, escalated_from) VALUES (?, ?, ?, ?, ?, ?, ?)';
const EXTEND = 'UPDATE firewall_bans SET expires_at = ? WHERE id = ?';
const LIFT_CATEGORY = 'UPDATE firewall_bans SET lifted_at = ? WHERE ip = ? AND category = ? AND lifted_at IS NULL';
const LIFT_IN_FORCE =
  'UPDATE firewall_bans SET lifted_at = ?, lifted_by = ? WHERE ip = ? AND lifted_at IS NULL AND expires_at > ?';
const LIFT_ROW = 'UPDATE firewall_bans SET lifted_at = ?, lifted_by = ? WHERE id = ?';
const END_MANUAL =
  "UPDATE firewall_bans SET lifted_at = ?, lifted_by = ? WHERE ip = ? AND category = 'manual' AND lifted_at IS NULL AND expires_at > ?";
const CARVE_LONGER =
  'SELECT 1 FROM firewall_bans WHERE ip = ? AND category = ? AND lifted_at IS NULL AND expires_at > ? AND expires_at >= ?';
const CARVE_END_SHORTER =
  'UPDATE firewall_bans SET lifted_at = ?, lifted_by = ? WHERE ip = ? AND category = ? AND lifted_at IS NULL AND expires_at > ?';
const CARVE_INSERT =
  'INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, services, banned_by, ban_number) ' +
  'SELECT category, ?, substr(reason || ?, 1, 200), banned_at, expires_at, services, banned_by, ban_number ' +
  'FROM firewall_bans WHERE id = ?';
const PRUNE = 'DELETE FROM firewall_bans WHERE COALESCE(lifted_at, expires_at) < ?';
// The bulk forms read their rows from one JSON array parameter (json_each): one statement for a whole import.
// A bulk import's statements (insertImportSlice and the rest): see migrations/027-ban-import-journal.ts.
const BEGIN_IMPORT =
  'INSERT INTO ban_import_journal (started_at, banned_by, after_id) ' +
  'SELECT ?, ?, COALESCE(MAX(id), 0) FROM firewall_bans';
const INSERT_IMPORT_SLICE =
  'INSERT INTO firewall_bans (category, ip, reason, banned_at, expires_at, services, banned_by, import_id) ' +
  "SELECT 'manual', value->>0, value->>1, ?, value->>2, value->>3, ?, ? FROM json_each(?)";
const END_REPLACED_BY_IMPORT =
  "UPDATE firewall_bans SET lifted_at = ?, lifted_by = ? WHERE ip IN (SELECT value FROM json_each(?)) AND category = 'manual' " +
  'AND lifted_at IS NULL AND expires_at > ? AND import_id IS NOT ?';
// Undoing an import: its own rows are after the journal's after_id (a rowid range), the bans it
// ended are found through the index on their end (they ended at the import's start, by its text).
const UNDO_IMPORT_ROWS = 'DELETE FROM firewall_bans WHERE id > ? AND import_id = ?';
const UNDO_IMPORT_ENDS =
  'UPDATE firewall_bans SET lifted_at = NULL, lifted_by = NULL WHERE COALESCE(lifted_at, expires_at) = ? ' +
  'AND lifted_at = ? AND lifted_by = ?';
const IMPORT_JOURNAL = 'SELECT id, started_at, banned_by, after_id FROM ban_import_journal';
const FINISH_IMPORT = 'DELETE FROM ban_import_journal WHERE id = ?';

/**
 * The web thread's bans: SQLite is the record (bans survive restarts), memory answers every
 * request. Expiry is judged at read time against the clock, so a ban ends exactly on time
 * without waiting for a sweep.
 */
export class BanStore {
  private readonly byIp = new Map<string, BansOfIp<ActiveBan>>();
  /**
   * Upstream bans by value: republished ones also live in byIp (and reach the snapshot); the others only refuse
   * this server's web access.
   */
  private readonly upstream = new Map<string, ActiveBan>();
  private readonly unpublished = new Map<string, { ban: ActiveBan; cidr: Cidr | undefined }>();
  /** Manual bans of whole ranges that also refuse this server's web access, checked by containment. */
  private readonly webRanges = new Map<ActiveBan, Cidr>();
  private readonly listeners: Array<(change: BanChange) => void> = [];
  /** Bumped on every change, so caches built from the bans know when to rebuild. */
  revision = 0;
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    // An import the process did not finish writing is undone before anything is read (all or nothing).
    BanStore.undoUnfinishedImports(db);
    this.reload();
  }

  /**
   * Calls `listener` after every change with what changed: bans added (or re-read), bans gone from
   * memory (lifted or replaced by a re-read), or `reset` when everything was re-read. An extended
   * ban is the same object with a later `expiresAt` (listed as added). Expiry is not a change:
   * readers judge it against the clock.
   */
  onChange(listener: (change: BanChange) => void): void {
    this.listeners.push(listener);
  }

  /** Reads every active ban from the database. */
  reload(): void {
    this.byIp.clear();
    this.webRanges.clear();
    const rows = this.db
      .prepare(
        'SELECT id, category, ip, reason, banned_at, expires_at, services, ban_number FROM ' +
          'firewall_bans WHERE lifted_at IS NULL AND expires_at > ?',
      )
      .all(this.clock.now()) as ActiveBanRow[];
    for (const row of rows) this.remember(toBan(row));
    for (const ban of this.upstream.values()) if (!this.unpublished.has(ban.ip)) this.remember(ban);
    this.changed({ added: [], removed: [], reset: true });
  }

  /** Re-reads one address from the database (after a worker lifted its bans). */
  reloadIp(ip: string): void {
    const removed = [...(this.byIp.get(ip)?.values() ?? [])].filter((ban) => ban.category !== 'upstream');
    for (const ban of removed) {
      this.webRanges.delete(ban);
      this.byIp.get(ip)?.delete(ban.category);
    }
    if (this.byIp.get(ip)?.size === 0) this.byIp.delete(ip);
    const rows = this.db
      .prepare(
        'SELECT id, category, ip, reason, banned_at, expires_at, services, ban_number FROM ' +
          'firewall_bans WHERE ip = ? AND lifted_at IS NULL AND expires_at > ?',
      )
      .all(ip, this.clock.now()) as ActiveBanRow[];
    const added = rows.map(toBan);
    for (const ban of added) this.remember(ban);
    this.changed({ added, removed, reset: false });
  }

  /**
   * Reads up to `limit` bans in force of import `importId` among rows `fromId`..`toId`, without
   * taking them in: see `absorb`. Returns them and the id to read from next (undefined when every
   * row was read).
   */
  readImportRows(
    importId: number,
    fromId: number,
    toId: number,
    limit: number,
  ): { bans: ActiveBan[]; next: number | undefined } {
    const rows = statement(
      this.db,
      'SELECT id, category, ip, reason, banned_at, expires_at, services FROM firewall_bans WHERE ' +
        'id >= ? AND id <= ? AND import_id = ? AND lifted_at IS NULL AND expires_at > ? ORDER BY id LIMIT ?',
    ).all(fromId, toId, importId, this.clock.now(), limit) as ActiveBanRow[];
    return { bans: rows.map(toBan), next: rows.length < limit ? undefined : rows[rows.length - 1]!.id + 1 };
  }

  /**
   * Takes in bans read by `readImportRows` as one change; a ban of the same (category, ip) they
   * replace leaves memory. The rows are read again first: an import's hand-over is spread over
   * event-loop turns, and meanwhile a later write (another import, an extension, an unban) may have
   * ended or changed a row. A stale copy must never replace what is in force now.
   */
  absorb(read: readonly ActiveBan[]): void {
    if (!read.length) return;
    const rows = statement(
      this.db,
      'SELECT id, category, ip, reason, banned_at, expires_at, services FROM firewall_bans ' +
        'WHERE id IN (SELECT value FROM json_each(?)) AND lifted_at IS NULL AND expires_at > ?',
    ).all(JSON.stringify(read.map((ban) => ban.id)), this.clock.now()) as ActiveBanRow[];
    const added: ActiveBan[] = [];
    const removed: ActiveBan[] = [];
    for (const ban of rows.map(toBan)) {
      const replaced = this.byIp.get(ban.ip)?.get(ban.category);
      // Row ids grow with every write: an older row never replaces a newer one.
      if (replaced && replaced.id > ban.id) continue;
      if (replaced) removed.push(replaced);
      this.remember(ban);
      added.push(ban);
    }
    if (added.length) this.changed({ added, removed, reset: false });
  }

  /**
   * Whether `ip` (canonical text) is refused by this server now: any intrusion ban, or a manual ban
   * of that address or of a range holding it whose services include WEB. O(1) for unbanned
   * addresses when no manual range ban is in force.
   */
  isBanned(ip: string): boolean {
    const now = this.clock.now();
    const bans = this.byIp.get(ip);
    if (bans) for (const ban of bans.values()) if (ban.expiresAt > now && blocksWeb(ban)) return true;
    for (const [ban, cidr] of this.webRanges) if (ban.expiresAt > now && cidrContains(cidr, ip)) return true;
    if (this.unpublished.size === 0) return false;
    const own = this.unpublished.get(ip);
    if (own && own.ban.expiresAt > now) return true;
    for (const { ban, cidr } of this.unpublished.values())
      if (cidr && ban.expiresAt > now && cidrContains(cidr, ip)) return true;
    return false;
  }

  /**
   * Sets or clears the upstream ban of each value (an address or canonical CIDR): kept in memory
   * only (the LAPI link keeps its own record). `publish` false keeps them off the bouncer export:
   * they only refuse this server's web access.
   */
  setUpstream(updates: ReadonlyArray<{ value: string; ban: ActiveBan | undefined }>, publish: boolean): void {
    const added: ActiveBan[] = [];
    const removed: ActiveBan[] = [];
    for (const { value, ban } of updates) {
      const previous = this.upstream.get(value);
      if (previous) {
        this.upstream.delete(value);
        if (this.unpublished.delete(value)) {
          // Not in byIp: nothing to tell the listeners.
        } else if (this.byIp.get(value)?.get('upstream') === previous) {
          this.byIp.get(value)!.delete('upstream');
          if (this.byIp.get(value)!.size === 0) this.byIp.delete(value);
          this.webRanges.delete(previous);
          removed.push(previous);
        }
      }
      if (!ban) continue;
      this.upstream.set(value, ban);
      if (publish) {
        this.remember(ban);
        added.push(ban);
      } else {
        this.unpublished.set(value, { ban, cidr: value.includes('/') ? parseCidr(value) : undefined });
      }
    }
    if (added.length || removed.length) this.changed({ added, removed, reset: false });
  }

  /** Whether `value` has an upstream ban that the export publishes now. */
  isUpstreamPublished(value: string): boolean {
    return this.upstream.has(value) && !this.unpublished.has(value);
  }

  /** How many upstream bans are held (published or not), expired ones included until the link drops them. */
  get upstreamCount(): number {
    return this.upstream.size;
  }

  /** The ban of (category, ip) in force now, if any. */
  get(category: StoreKind, ip: string): ActiveBan | undefined {
    const ban = this.byIp.get(ip)?.get(category);
    return ban && ban.expiresAt > this.clock.now() ? ban : undefined;
  }

  /** The bans of `ip` (canonical text) in force now. */
  forIp(ip: string): ActiveBan[] {
    const now = this.clock.now();
    return [...(this.byIp.get(ip)?.values() ?? [])].filter((ban) => ban.expiresAt > now);
  }

  /**
   * How many automatic bans of `ip` the history still holds: in `category`, or in every category
   * when it is null (fail2ban's `bantime.overalljails`). The memory of repeat offenders.
   */
  earlierBans(ip: string, category: BanKind | null): number {
    const row = (
      category === null
        ? this.db.prepare("SELECT COUNT(*) AS n FROM firewall_bans WHERE ip = ? AND category <> 'manual'").get(ip)
        : this.db.prepare('SELECT COUNT(*) AS n FROM firewall_bans WHERE ip = ? AND category = ?').get(ip, category)
    ) as { n: number };
    return row.n;
  }

  /** Bans (category, ip) for `seconds`; an existing ban is extended instead of duplicated. `banNumber`: its rank (1: first). */
  ban(category: BanKind, ip: string, reason: string, seconds: number, banNumber = 1): ActiveBan {
    const now = this.clock.now();
    const expiresAt = now + seconds * 1000;
    const current = this.get(category, ip);
    if (current) {
      const later = Math.max(current.expiresAt, expiresAt);
      writeWithShortWait(this.db, () => statement(this.db, EXTEND).run(later, current.id));
      current.expiresAt = later;
      this.changed({ added: [current], removed: [], reset: false });
      return current;
    }
    // A short wait for the lock: this runs on the web thread, and a failure is the caller's to report.
    const info = writeWithShortWait(this.db, () =>
      statement(this.db, INSERT_AUTOMATIC).run(category, ip, reason.slice(0, 200), now, expiresAt, banNumber),
    );
    const ban: ActiveBan = {
      id: Number(info.lastInsertRowid),
      category,
      ip,
      reason: reason.slice(0, 200),
      bannedAt: now,
      expiresAt,
      banNumber,
    };
    const replaced = this.byIp.get(ip)?.get(category);
    this.remember(ban);
    this.changed({ added: [ban], removed: replaced ? [replaced] : [], reset: false });
    return ban;
  }

  /**
   * Replaces single bans by one Range ban of their category (neighbourhood escalation), in one
   * transaction: the range's row is written and each single lifted `by` (`escalated into <range>`),
   * or nothing is. Listeners see one change: the range added, the singles removed.
   */
  escalate(range: EscalatedRange, singles: readonly ActiveBan[], by: string): ActiveBan {
    const now = this.clock.now();
    const reason = range.reason.slice(0, 200);
    const id = writeWithShortWait(this.db, () =>
      this.db.transaction(() => {
        for (const single of singles) statement(this.db, LIFT_ROW).run(now, by, single.id);
        const info = statement(this.db, INSERT_ESCALATED).run(
          range.category,
          range.ip,
          reason,
          now,
          range.expiresAt,
          range.banNumber,
          singles.length,
        );
        return Number(info.lastInsertRowid);
      })(),
    );
    for (const single of singles) {
      this.webRanges.delete(single);
      this.byIp.get(single.ip)?.delete(single.category);
      if (this.byIp.get(single.ip)?.size === 0) this.byIp.delete(single.ip);
    }
    const ban: ActiveBan = { ...range, id, reason, bannedAt: now };
    this.remember(ban);
    this.changed({ added: [ban], removed: [...singles], reset: false });
    return ban;
  }

  /** Sets the reason of a ban in force (record and memory); not a change: the export never shows reasons. */
  setReason(ban: ActiveBan, reason: string): void {
    const text = reason.slice(0, 200);
    writeWithShortWait(this.db, () =>
      statement(this.db, 'UPDATE firewall_bans SET reason = ? WHERE id = ?').run(text, ban.id),
    );
    ban.reason = text;
  }

  /**
   * Lifts the (category, ip) ban in the record and re-reads the address. Waits briefly for the
   * write lock and throws when it is busy: the caller decides whether to retry.
   */
  lift(category: BanKind, ip: string): void {
    statement(this.db, LIFT_CATEGORY).run(this.clock.now(), ip, category);
    this.reloadIp(ip);
  }

  /**
   * Every ban in force now, in insertion order. Expired entries are dropped from memory on the
   * way (their rows stay for the history).
   */
  active(): ActiveBan[] {
    const now = this.clock.now();
    const out: ActiveBan[] = [];
    for (const [ip, bans] of this.byIp) {
      for (const ban of bans.values()) {
        if (ban.expiresAt > now) out.push(ban);
        else this.webRanges.delete(ban);
      }
      bans.dropEndedBy(now);
      if (bans.size === 0) this.byIp.delete(ip);
    }
    return out;
  }

  /** Whether any ban is in force now: stops at the first one (the health checks ask every tick). */
  anyInForce(): boolean {
    const now = this.clock.now();
    for (const bans of this.byIp.values()) for (const ban of bans.values()) if (ban.expiresAt > now) return true;
    return false;
  }

  private remember(ban: ActiveBan): void {
    let bans = this.byIp.get(ban.ip);
    if (!bans) this.byIp.set(ban.ip, (bans = new BansOfIp()));
    const replaced = bans.get(ban.category);
    if (replaced) this.webRanges.delete(replaced);
    bans.set(ban);
    if (ban.ip.includes('/') && blocksWeb(ban)) this.webRanges.set(ban, parseCidr(ban.ip)!);
  }

  /** Drops bans past their expiry from memory (their rows stay for the history). */
  sweep(): void {
    this.active();
  }

  private changed(change: BanChange): void {
    this.revision++;
    for (const listener of this.listeners) listener(change);
  }

  // The record's writes that workers run (they hold no BanStore): the web thread learns of them by
  // bus events (`bans-added`, `bans-lifted`, `bans-imported`) and re-reads. Every ban write is here.

  /** Lifts every ban of `value` in force at `now`, all categories (expired ones keep their history). Returns how many. */
  static liftInForce(db: Db, value: string, now: number, by: string): number {
    return statement(db, LIFT_IN_FORCE).run(now, by, value, now).changes;
  }

  /**
   * Replaces one ban in force by the CIDRs around a never-banned hole (a whitelist entry saved
   * inside it): the row is lifted as `by`, and each piece gets the same category, end, services and
   * rank, its reason followed by `note`. A piece already banned as long or longer is left to that
   * ban; a shorter one is ended. Returns the pieces written.
   */
  static carveRow(db: Db, id: number, pieces: readonly string[], note: string, now: number, by: string): string[] {
    const row = statement(db, 'SELECT category, expires_at FROM firewall_bans WHERE id = ?').get(id) as
      | { category: string; expires_at: number }
      | undefined;
    if (!row) return [];
    statement(db, LIFT_ROW).run(now, by, id);
    const written: string[] = [];
    for (const piece of pieces) {
      const longer = statement(db, CARVE_LONGER).get(piece, row.category, now, row.expires_at);
      if (longer) continue;
      statement(db, CARVE_END_SHORTER).run(now, by, piece, row.category, now);
      statement(db, CARVE_INSERT).run(piece, ` (${note})`, id);
      written.push(piece);
    }
    return written;
  }

  /** Lifts one ban by its row id. */
  static liftRow(db: Db, id: number, now: number, by: string): void {
    statement(db, LIFT_ROW).run(now, by, id);
  }

  /** Ends the manual ban of `value` in force (lifted by `by`), as a new manual ban of it replaces it. */
  static endManual(db: Db, value: string, now: number, by: string): void {
    statement(db, END_MANUAL).run(now, by, value, now);
  }

  /** Records a manual ban until `expiresAt` (services null: all). Returns the new row's id. */
  static insertManual(db: Db, ban: ManualRow, now: number, expiresAt: number): number {
    const services = ban.services ? JSON.stringify(ban.services) : null;
    return Number(
      statement(db, INSERT_MANUAL).run(ban.value, ban.reason, now, expiresAt, services, ban.by).lastInsertRowid,
    );
  }

  // A bulk import, written in slices so that SQLite's write lock is held a few milliseconds at a
  // time, and all or nothing through its journal row (see firewall/transfer/ban-import-write.ts).

  /** Starts an import: its journal row, which stays until `finishImport`. Returns the import's id. */
  static beginImport(db: Db, now: number, by: string): number {
    return Number(statement(db, BEGIN_IMPORT).run(now, by).lastInsertRowid);
  }

  /**
   * Records one slice of an import's manual bans, each until its `expiresAt`, in one statement.
   * Returns the new rows' first and last ids (undefined for an empty slice).
   */
  static insertImportSlice(
    db: Db,
    importId: number,
    bans: ReadonlyArray<Omit<ManualRow, 'by'> & { expiresAt: number }>,
    now: number,
    by: string,
  ): { first: number; last: number } | undefined {
    if (!bans.length) return undefined;
    const rows = bans.map((ban) => [
      ban.value,
      ban.reason,
      ban.expiresAt,
      ban.services ? JSON.stringify(ban.services) : null,
    ]);
    const info = statement(db, INSERT_IMPORT_SLICE).run(now, by, importId, JSON.stringify(rows));
    const last = Number(info.lastInsertRowid);
    return { first: last - info.changes + 1, last };
  }

  /** Ends the manual bans in force of `values` that an import replaces (its own new rows stay). */
  static endReplacedByImport(db: Db, importId: number, values: readonly string[], now: number, by: string): void {
    statement(db, END_REPLACED_BY_IMPORT).run(now, replacedBy(by), JSON.stringify(values), now, importId);
  }

  /** The import is whole: its journal row goes, and its bans are the record like any other. */
  static finishImport(db: Db, importId: number): void {
    statement(db, FINISH_IMPORT).run(importId);
  }

  /**
   * Undoes an import not finished (call inside a transaction): its rows are deleted, the bans it
   * ended are in force again, its journal row goes. Returns how many rows it had written.
   */
  static undoImport(db: Db, importId: number): number {
    const entry = (statement(db, IMPORT_JOURNAL + ' WHERE id = ?').get(importId) ?? undefined) as
      | ImportJournalRow
      | undefined;
    if (!entry) return 0;
    const deleted = statement(db, UNDO_IMPORT_ROWS).run(entry.after_id, importId).changes;
    statement(db, UNDO_IMPORT_ENDS).run(entry.started_at, entry.started_at, replacedBy(entry.banned_by));
    statement(db, FINISH_IMPORT).run(importId);
    return deleted;
  }

  /** Undoes every import cut short (the process ended while it was written). Returns their ids. */
  static undoUnfinishedImports(db: Db): number[] {
    const ids = (statement(db, IMPORT_JOURNAL).all() as ImportJournalRow[]).map((row) => row.id);
    if (ids.length) db.transaction(() => ids.forEach((id) => BanStore.undoImport(db, id)))();
    return ids;
  }

  /** Drops history rows that ended before `before` (bans in force never). Returns how many. */
  static pruneHistory(db: Db, before: number): number {
    return statement(db, PRUNE).run(before).changes;
  }
}
