import type { Clock } from '../../clock.ts';
import { parseAddress, parseCidr } from '../../net/cidr.ts';
import { addressToBigInt, cidrBounds } from '../../net/cidr-ranges.ts';
import type { Db } from '../../storage/database.ts';
import type { Fail2banSettings } from './fail2ban-fields.ts';
import { readFail2ban } from './fail2ban-settings.ts';

/** The settings the protection reads (fail2ban `protectRegistered`, `registeredLingerMinutes`). */
export type ProtectionSettings = Pick<Fail2banSettings, 'protectRegistered' | 'registeredLingerMinutes'>;

/** One registration of an endpoint from an address; `endedAt` null while it lasts. */
export interface RegisteredContact {
  address: string;
  endpoint: string;
  since: number;
  endedAt: number | null;
}

/** A protected address as the console lists it: its phones, registered since (epoch ms) or ended at. */
export interface ProtectedAddress {
  address: string;
  phones: Array<{ endpoint: string; since: number; endedAt: number | null }>;
}

interface Registration {
  since: number;
  endedAt: number | null;
}

/** Ended registrations older than the longest linger are forgotten (settings bound: 60 minutes). */
const FORGET_AFTER_MS = 60 * 60_000;

/** `101`, `101 and 103`, `101, 102 and 103`: phones as a sentence names them. */
export function phoneList(phones: readonly string[]): string {
  if (phones.length <= 1) return phones.join('');
  return `${phones.slice(0, -1).join(', ')} and ${phones[phones.length - 1]}`;
}

/** `2 registered phones, 101 and 103`: why an address is protected (the lookup, 409s, the log). */
export function protectionText(phones: readonly string[]): string {
  return `${phones.length} registered phone${phones.length === 1 ? '' : 's'}, ${phoneList(phones)}`;
}

/** `198.51.100.10 (phones 101 and 103), 198.51.100.20 (phone 205)`: what a ban would cut off. */
export function describeCutOff(found: ReadonlyMap<string, readonly string[]>): string {
  return [...found]
    .map(([address, phones]) => `${address} (phone${phones.length === 1 ? '' : 's'} ${phoneList(phones)})`)
    .join(', ');
}

/**
 * Registered phones are never cut off: the addresses PJSIP endpoints are registered from (fed by
 * the AMI monitor, peers/registered-feed.ts), each protected while a registration lasts and
 * `registeredLingerMinutes` after the last one ends. Every ban path consults it, beside the
 * never-banned rule (never-banned.ts): the intrusion detector flags the account instead of banning
 * the address, a manual ban or import needs a confirmation, an upstream decision is not enforced,
 * and the neighbourhood escalation is not widened over it (`isProtected`, `protectedPhones`).
 *
 * The web thread holds the live copy and writes every change through to `registered_contacts`;
 * a worker reads its own copy with `RegisteredAddresses.read(db, now)`.
 */
export class RegisteredAddresses {
  private readonly byAddress = new Map<string, Map<string, Registration>>();
  /** Addresses sorted by their integer, per family, for range questions; rebuilt lazily after a change. */
  private sorted: { ipv4: Array<[bigint, string]>; ipv6: Array<[bigint, string]> } | undefined;
  private readonly registeredListeners = new Set<(endpoint: string) => void>();
  /** While a refresh replaces everything, changed rows gather here and are written once. */
  private batch: RegisteredContact[] | undefined;

  constructor(
    private readonly settings: () => ProtectionSettings,
    private readonly clock: Clock,
    /** Writes changed rows through (the web thread's store); workers pass none. */
    private readonly store?: (changed: RegisteredContact[]) => void,
  ) {}

  /** A worker's copy: the stored contacts and the stored settings at `now`. */
  static read(db: Db, now: number): RegisteredAddresses {
    const settings = readFail2ban(db);
    const index = new RegisteredAddresses(() => settings, { now: () => now });
    index.loadFrom(db);
    return index;
  }

  /** Takes in the stored contacts (at start, or a worker's copy). */
  loadFrom(db: Db): void {
    for (const row of readContacts(db)) this.set(row.address, row.endpoint, { since: row.since, endedAt: row.endedAt });
  }

  /** Whether the protection is on (fail2ban `protectRegistered`). */
  get enabled(): boolean {
    return this.settings().protectRegistered;
  }

  /**
   * Whether `address` (canonical text) hosts a registered phone now, or did within the linger.
   * One map lookup: the intrusion detector asks at every failure (bench/protected-check.ts).
   */
  isProtected(address: string): boolean {
    const registrations = this.byAddress.get(address);
    if (!registrations || !this.enabled) return false;
    const since = this.clock.now() - this.lingerMs();
    for (const r of registrations.values()) if (r.endedAt === null || r.endedAt > since) return true;
    return false;
  }

  /** The phones (endpoints) that protect `address` now, sorted; empty when it is not protected. */
  phonesAt(address: string): string[] {
    const registrations = this.byAddress.get(address);
    if (!registrations || !this.enabled) return [];
    const since = this.clock.now() - this.lingerMs();
    return [...registrations]
      .filter(([, r]) => r.endedAt === null || r.endedAt > since)
      .map(([endpoint]) => endpoint)
      .sort(byNumber);
  }

  /**
   * The protected addresses inside `value` (an address or CIDR), each with its phones: what a ban
   * of `value` would cut off. Empty when none (also for garbage, and while the protection is off).
   */
  protectedPhones(value: string): Map<string, string[]> {
    const found = new Map<string, string[]>();
    if (!this.enabled || this.byAddress.size === 0) return found;
    if (!value.includes('/')) {
      const phones = this.phonesAt(value);
      if (phones.length) found.set(value, phones);
      return found;
    }
    const cidr = parseCidr(value);
    if (!cidr) return found;
    const { family, first, last } = cidrBounds(cidr);
    const list = this.sortedAddresses()[family];
    for (let i = lowerBound(list, first); i < list.length && list[i]![0] <= last; i++) {
      const address = list[i]![1];
      const phones = this.phonesAt(address);
      if (phones.length) found.set(address, phones);
    }
    return found;
  }

  /** Every protected address with its phones (registered ones, and ended ones within the linger). */
  list(): ProtectedAddress[] {
    if (!this.enabled) return [];
    const since = this.clock.now() - this.lingerMs();
    const out: ProtectedAddress[] = [];
    for (const [address, registrations] of this.byAddress) {
      const phones = [...registrations]
        .filter(([, r]) => r.endedAt === null || r.endedAt > since)
        .map(([endpoint, r]) => ({ endpoint, since: r.since, endedAt: r.endedAt }))
        .sort((a, b) => byNumber(a.endpoint, b.endpoint));
      if (phones.length) out.push({ address, phones });
    }
    return out.sort((a, b) => (a.address < b.address ? -1 : 1));
  }

  /** Called with the endpoint each time a registration starts (a flag on that account clears). */
  onRegistered(listener: (endpoint: string) => void): () => void {
    this.registeredListeners.add(listener);
    return () => this.registeredListeners.delete(listener);
  }

  /** A contact of `endpoint` is registered from `address` (ContactStatus Created/Reachable, or a refresh). */
  contactUp(rawAddress: string, endpoint: string): void {
    const address = parseAddress(rawAddress)?.toString();
    if (!address || !endpoint) return;
    const known = this.byAddress.get(address)?.get(endpoint);
    if (known && known.endedAt === null) return;
    const registration = { since: this.clock.now(), endedAt: null };
    this.set(address, endpoint, registration);
    this.write([{ address, endpoint, ...registration }]);
    for (const listener of this.registeredListeners) listener(endpoint);
  }

  /** The contact of `endpoint` at `address` is gone (ContactStatus Removed): the linger starts. */
  contactDown(rawAddress: string, endpoint: string): void {
    const address = parseAddress(rawAddress)?.toString();
    const known = address && this.byAddress.get(address)?.get(endpoint);
    if (!address || !known || known.endedAt !== null) return;
    known.endedAt = this.clock.now();
    this.write([{ address, endpoint, ...known }]);
  }

  /**
   * The full list of registered contacts (a refresh): each one up, every other live one down, and
   * ended ones past the longest linger forgotten.
   */
  replaceAll(current: ReadonlyArray<{ address: string; endpoint: string }>): void {
    const live = new Set<string>();
    const batch: RegisteredContact[] = (this.batch = []);
    try {
      for (const { address, endpoint } of current) {
        const canonical = parseAddress(address)?.toString();
        if (!canonical) continue;
        live.add(`${canonical}|${endpoint}`);
        this.contactUp(canonical, endpoint);
      }
      this.endAllBut(live);
    } finally {
      this.batch = undefined;
    }
    if (batch.length) this.store?.(batch);
  }

  /** Every registration ends now (AMI disabled or pointed at another server). */
  endAll(): void {
    this.endAllBut(new Set());
  }

  private endAllBut(live: ReadonlySet<string>): void {
    const now = this.clock.now();
    const changed: RegisteredContact[] = [];
    for (const [address, registrations] of this.byAddress) {
      for (const [endpoint, r] of registrations) {
        if (r.endedAt === null && !live.has(`${address}|${endpoint}`)) {
          r.endedAt = now;
          changed.push({ address, endpoint, ...r });
        } else if (r.endedAt !== null && r.endedAt <= now - FORGET_AFTER_MS) {
          registrations.delete(endpoint);
          changed.push({ address, endpoint, since: r.since, endedAt: -1 });
        }
      }
      if (registrations.size === 0) {
        this.byAddress.delete(address);
        this.sorted = undefined;
      }
    }
    if (changed.length) this.write(changed);
  }

  private write(changed: RegisteredContact[]): void {
    if (this.batch) this.batch.push(...changed);
    else this.store?.(changed);
  }

  private set(address: string, endpoint: string, registration: Registration): void {
    let registrations = this.byAddress.get(address);
    if (!registrations) {
      registrations = new Map();
      this.byAddress.set(address, registrations);
      this.sorted = undefined;
    }
    registrations.set(endpoint, registration);
  }

  private lingerMs(): number {
    return this.settings().registeredLingerMinutes * 60_000;
  }

  private sortedAddresses() {
    if (!this.sorted) {
      const sorted = { ipv4: [] as Array<[bigint, string]>, ipv6: [] as Array<[bigint, string]> };
      for (const address of this.byAddress.keys()) {
        const parsed = parseAddress(address)!;
        sorted[parsed.kind()].push([addressToBigInt(parsed), address]);
      }
      for (const list of Object.values(sorted)) list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.sorted = sorted;
    }
    return this.sorted;
  }
}

/** Extension numbers in numeric order when they are numbers (`99` before `101`). */
const byNumber = (a: string, b: string) => {
  // Intl's numeric collation costs microseconds a call: plain numbers are compared as numbers here.
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
};

function lowerBound(list: ReadonlyArray<[bigint, string]>, value: bigint): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]![0] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

function readContacts(db: Db): RegisteredContact[] {
  return db
    .prepare('SELECT address, endpoint, since, ended_at AS endedAt FROM registered_contacts')
    .all() as RegisteredContact[];
}

/** Writes changed registrations (an `endedAt` of -1 deletes the row: forgotten). */
export function writeContacts(db: Db, changed: readonly RegisteredContact[]): void {
  const upsert = db.prepare(
    'INSERT INTO registered_contacts (address, endpoint, since, ended_at) VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT (address, endpoint) DO UPDATE SET since = excluded.since, ended_at = excluded.ended_at',
  );
  const remove = db.prepare('DELETE FROM registered_contacts WHERE address = ? AND endpoint = ?');
  db.transaction(() => {
    for (const c of changed)
      if (c.endedAt === -1) remove.run(c.address, c.endpoint);
      else upsert.run(c.address, c.endpoint, c.since, c.endedAt);
  })();
}
