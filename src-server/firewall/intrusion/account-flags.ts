import type { Clock } from '../../clock.ts';
import type { Db } from '../../storage/database.ts';
import type { AccountFlag } from '../../wire/types.ts';
import { ruleFor } from './ban-policy.ts';
import type { BanCategory } from '../model/index.ts';
import { phoneList, type FirewallState, type RegisteredAddresses } from '../filters/index.ts';

/** The account of a failure that named none (a malformed request, an HTTP login without a name). */
export const NO_ACCOUNT = '(no account)';
/** Above this many tracked (address, account) pairs, stale ones are swept before adding more. */
const SWEEP_ABOVE = 10_000;

interface Tracked {
  account: string;
  failures: number[];
  /** The window the pair is counted over (its category's findtime), ms. */
  windowMs: number;
  flag: AccountFlag | undefined;
}

/**
 * The account as it may be shown: Asterisk passes on whatever the caller sent, so control
 * characters (a terminal escape) and bidirectional overrides (text that reads backwards) become `?`.
 */
function printable(account: string): string {
  return account
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '?')
    .trim()
    .slice(0, 64);
}

/** `Account 102 fails from 198.51.100.10, where 101 and 103 are registered`: the flag in words. */
export function flagText(flag: Pick<AccountFlag, 'account' | 'address' | 'registeredAccounts'>): string {
  const others = flag.registeredAccounts;
  const where = others.length
    ? `, where ${phoneList(others)} ${others.length === 1 ? 'is' : 'are'} registered`
    : ', where phones are registered';
  const who = flag.account === NO_ACCOUNT ? 'Attempts naming no account fail' : `Account ${flag.account} fails`;
  return `${who} from ${flag.address}${where}`;
}

/**
 * Failures from an address with registered phones never ban the address (registered-addresses.ts):
 * they count per (address, account) over the category's findtime, and at its maxretry the account
 * is flagged. A flag clears when the account registers, or once findtime passes without a failure.
 * Each change goes to `onChange` (the service stores it, logs it, and emits `account-flagged`).
 */
export class AccountFlags {
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly state: FirewallState,
    private readonly registered: RegisteredAddresses,
    private readonly clock: Clock,
    private readonly onChange: (flag: AccountFlag) => void,
  ) {
    registered.onRegistered((endpoint) => this.accountRegistered(endpoint));
  }

  /** One failure of `account` from the protected `address`. */
  recordFailure(category: BanCategory, address: string, rawAccount: string | undefined): void {
    const account = printable(rawAccount ?? '') || NO_ACCOUNT;
    const { maxretry, findtime } = ruleFor(this.state.settings, category);
    const now = this.clock.now();
    const key = JSON.stringify([address, account]);
    if (!this.tracked.has(key) && this.tracked.size >= SWEEP_ABOVE) this.expire();
    let tracked = this.tracked.get(key);
    if (!tracked) {
      tracked = { account, failures: [], windowMs: 0, flag: undefined };
      this.tracked.set(key, tracked);
    }
    tracked.windowMs = findtime * 1000;
    if (tracked.flag) {
      // Flagged: only the last failure matters (the flag clears a window after it).
      tracked.failures[0] = now;
      tracked.flag.failures++;
      return;
    }
    const since = now - tracked.windowMs;
    tracked.failures = tracked.failures.filter((at) => at > since);
    tracked.failures.push(now);
    if (tracked.failures.length < maxretry) return;
    tracked.failures = [now];
    tracked.flag = {
      account,
      address,
      registeredAccounts: this.registered.phonesAt(address).filter((phone) => phone !== account),
      state: 'flagged',
      failures: maxretry,
      at: new Date(now).toISOString(),
    };
    this.onChange({ ...tracked.flag });
  }

  /** Flags in force, newest first. */
  get flags(): AccountFlag[] {
    return [...this.tracked.values()]
      .flatMap((t) => (t.flag ? [{ ...t.flag }] : []))
      .sort((a, b) => (a.at < b.at ? 1 : -1));
  }

  /** Clears the flags and counts whose last failure is a window old (called every few seconds). */
  expire(): void {
    const now = this.clock.now();
    for (const [key, tracked] of this.tracked) {
      const last = tracked.failures[tracked.failures.length - 1] ?? 0;
      if (last > now - tracked.windowMs) continue;
      this.tracked.delete(key);
      if (tracked.flag) this.clear(tracked.flag);
    }
  }

  private accountRegistered(endpoint: string): void {
    for (const [key, tracked] of this.tracked) {
      if (tracked.account !== endpoint) continue;
      this.tracked.delete(key);
      if (tracked.flag) this.clear(tracked.flag);
    }
  }

  private clear(flag: AccountFlag): void {
    this.onChange({ ...flag, state: 'cleared', at: new Date(this.clock.now()).toISOString() });
  }
}

/** Stores a flag change: a raised flag is written, a cleared one deleted (the Dashboard lists those in force). */
export function writeAccountFlag(db: Db, flag: AccountFlag): void {
  if (flag.state === 'cleared') {
    db.prepare('DELETE FROM account_flags WHERE account = ? AND address = ?').run(flag.account, flag.address);
    return;
  }
  const at = Date.parse(flag.at);
  db.prepare(
    'INSERT OR REPLACE INTO account_flags (account, address, registered_accounts, failures, flagged_at, ' +
      'last_failure_at) VALUES (?, ?, ?, ?, ?, ?)',
  ).run(flag.account, flag.address, JSON.stringify(flag.registeredAccounts), flag.failures, at, at);
}

/** The flags in force as stored (a worker's read, for the Dashboard), newest first. */
export function readAccountFlags(db: Db): AccountFlag[] {
  const rows = db
    .prepare(
      'SELECT account, address, registered_accounts, failures, flagged_at FROM account_flags ORDER BY flagged_at DESC',
    )
    .all() as Array<{
    account: string;
    address: string;
    registered_accounts: string;
    failures: number;
    flagged_at: number;
  }>;
  return rows.map((row) => ({
    account: row.account,
    address: row.address,
    registeredAccounts: JSON.parse(row.registered_accounts) as string[],
    state: 'flagged',
    failures: row.failures,
    at: new Date(row.flagged_at).toISOString(),
  }));
}

/** Forgets every stored flag (at start: the counts behind them were in memory). */
export function clearAccountFlags(db: Db): void {
  db.prepare('DELETE FROM account_flags').run();
}
