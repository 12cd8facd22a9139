import type ipaddr from 'ipaddr.js';
import { searchCondition } from '../firewall/bans/index.ts';
import {
  FirewallState,
  loadFilters,
  readFail2ban,
  RegisteredAddresses,
  trustedRanges,
  whitelistRanges,
} from '../firewall/filters/index.ts';
import { cidrContains, type Cidr } from '../net/cidr.ts';
import { readSetting, storedFields } from '../storage/settings.ts';
import { statement, type Db } from '../storage/database.ts';
import { CROWDSEC_LINK_SETTING_KEY } from '../storage/migrations/070-crowdsec-link.ts';
import { ProtectedValues } from './protected-values.ts';

/** At most this many upstream bans are listed (a community blocklist holds tens of thousands); all are counted. */
export const UPSTREAM_LIST_LIMIT = 1000;

/** An upstream LAPI decision enforced on this PBX, as `firewall:getBannedIps` lists it. */
export interface UpstreamBan {
  ip: string;
  category: 'upstream';
  reason: string;
  /** The LAPI stream does not say when a decision started. */
  bannedAt: null;
  expiresAt: string;
  secondsLeft: number;
  /** The upstream origin (`crowdsec`, `cscli`, `CAPI`...). */
  bannedBy: string;
  services: null;
  permanent: false;
  banNumber: 0;
  upstream: {
    origin: string;
    scenario: string;
    /**
     * Always false: the decision belongs to the LAPI and would come back at the next poll. Lift it
     * there (`cscli decisions delete --ip ...`), or whitelist the address here (whitelist wins).
     */
    liftable: false;
  };
}

/** The link's stored fields (link-settings.ts reads them over their defaults; here only three flags matter). */
const storedLink = storedFields(CROWDSEC_LINK_SETTING_KEY);

/** Whether the link pulls (what it pulled is enforced only then). */
function pulling(db: Db): boolean {
  const settings = readSetting(db, storedLink);
  return settings.enabled === true && settings.pullEnabled === true && Boolean(settings.url);
}

/**
 * Why `value` stays banned after a local unban, when an upstream decision holds it here: a notice
 * for `firewall:unbanIp` (the LAPI's decision is not lifted here). Undefined when none does.
 */
export function upstreamUnbanNotice(db: Db, value: string, now: number): string | undefined {
  if (!pulling(db)) return undefined;
  const row = db
    .prepare(
      'SELECT value, scenario, origin, expires_at FROM crowdsec_upstream_decisions WHERE value = ? AND ' +
        'expires_at > ? ORDER BY expires_at DESC LIMIT 1',
    )
    .get(value, now) as Row | undefined;
  if (!row || protectedValuesAt(db, now).isProtected(value)) return undefined;
  return (
    `${value} stays banned by the upstream CrowdSec LAPI (${row.origin}: ${row.scenario}): lift it there ` +
    `(cscli decisions delete --ip ${value}), or whitelist it here to ignore it on this PBX.`
  );
}

/** A worker's view of what this PBX never enforces upstream: the never-banned rule and registered phones. */
const protectedValuesAt = (db: Db, now: number) =>
  new ProtectedValues(new FirewallState(db, { now: () => now }), RegisteredAddresses.read(db, now));

interface Row {
  value: string;
  scenario: string;
  origin: string;
  expires_at: number;
}

/**
 * The SQL condition (and its parameters) that holds every value a protected range could cover:
 * ranges always (a range is protected when it touches one), loopback, unspecified, and for each protected IPv4
 * range the values that start with its fixed octets (an index range on `value`). An IPv6 range
 * (rare in a whitelist) makes every value a candidate. Candidates are then checked one by one.
 */
function protectedCandidates(ranges: ReadonlyArray<{ cidr: Cidr }>): { sql: string; params: string[] } {
  // Every range, the host loopback and the unspecified addresses (`::`, `0.x.x.x`): never banned whatever the configuration.
  const parts = ["instr(value, '/') > 0", "value IN ('127.0.0.1', '::1', '::')", "(value >= '0.' AND value < '0/')"];
  const params: string[] = [];
  for (const { cidr } of ranges) {
    const [address, bits] = cidr;
    if (address.kind() !== 'ipv4') return { sql: '1', params: [] };
    const fixed = Math.floor(bits / 8);
    const octets = (address as ipaddr.IPv4).octets.slice(0, fixed);
    if (fixed === 0) return { sql: '1', params: [] };
    if (fixed === 4) {
      parts.push('value = ?');
      params.push(octets.join('.'));
    } else {
      // `/` follows `.` in byte order: [prefix., prefix/) holds exactly the texts that start with "prefix.".
      const prefix = octets.join('.');
      parts.push('(value >= ? AND value < ?)');
      params.push(`${prefix}.`, `${prefix}/`);
    }
  }
  return { sql: parts.join(' OR '), params };
}

/**
 * The upstream bans this PBX enforces now (runs in a worker, from what the link keeps in SQLite):
 * none while pulling is off; for each value its longest decision in force, unless loopback, the
 * whitelist or a trusted network protects it (the puller's own rule). Longest-lasting first, the
 * page `offset`..`offset + limit`; `total` counts them all. Paged and counted in SQL: only the few
 * values a protected range could cover are checked here (a 100k community list costs tens of ms).
 */
export function listUpstreamBans(
  db: Db,
  now: number,
  limit = UPSTREAM_LIST_LIMIT,
  offset = 0,
  search?: string,
): { bans: UpstreamBan[]; total: number } {
  if (!pulling(db)) return { bans: [], total: 0 };
  const protectedValues = protectedValuesAt(db, now);
  const candidates = protectedCandidates([
    ...trustedRanges(loadFilters(db)),
    ...whitelistRanges(readFail2ban(db), now),
  ]);
  // Addresses with registered phones are candidates too (ranges always are).
  const phones = JSON.stringify(
    RegisteredAddresses.read(db, now)
      .list()
      .map((p) => p.address),
  );
  const excluded = (
    statement(
      db,
      'SELECT DISTINCT value FROM crowdsec_upstream_decisions WHERE expires_at > ? AND ' +
        `(${candidates.sql} OR value IN (SELECT value FROM json_each(?)))`,
    )
      .pluck()
      .all(now, ...candidates.params, phones) as string[]
  ).filter((value) => protectedValues.isProtected(value));
  const skip = JSON.stringify(excluded);
  // The Bans screen's search: the start of the address, or part of the address, the origin or the scenario.
  const condition = search ? searchCondition(search, 'value', ['origin', 'scenario']) : undefined;
  const matching = condition ? ` AND ${condition.sql}` : '';
  const like = condition?.params ?? [];
  const total = statement(
    db,
    'SELECT COUNT(DISTINCT value) FROM crowdsec_upstream_decisions WHERE expires_at > ? AND value NOT IN ' +
      `(SELECT value FROM json_each(?))${matching}`,
  )
    .pluck()
    .get(now, skip, ...like) as number;
  // SQLite takes the bare columns from the row that holds the MAX: each value's longest decision.
  const rows = statement(
    db,
    'SELECT value, scenario, origin, MAX(expires_at) AS expires_at FROM crowdsec_upstream_decisions ' +
      `WHERE expires_at > ? AND value NOT IN (SELECT value FROM json_each(?))${matching} GROUP BY value ` +
      'ORDER BY expires_at DESC, value LIMIT ? OFFSET ?',
  ).all(now, skip, ...like, limit, offset) as Row[];
  const bans = rows.map(
    (row): UpstreamBan => ({
      ip: row.value,
      category: 'upstream',
      reason: `${row.origin}: ${row.scenario}`.slice(0, 200),
      bannedAt: null,
      expiresAt: new Date(row.expires_at).toISOString(),
      secondsLeft: Math.max(1, Math.ceil((row.expires_at - now) / 1000)),
      bannedBy: row.origin,
      services: null,
      permanent: false,
      banNumber: 0,
      upstream: { origin: row.origin, scenario: row.scenario, liftable: false },
    }),
  );
  return { bans, total };
}

/** An upstream decision that covers one address, as "Why is this address blocked?" shows it. */
export interface UpstreamCovering {
  value: string;
  scope: 'Ip' | 'Range';
  origin: string;
  scenario: string;
  secondsLeft: number;
}

/**
 * The upstream decisions this PBX enforces on `address` (runs in a worker): the address's own and
 * those of ranges that hold it, each value's longest decision in force, none while pulling is off
 * and none the whitelist, trusted networks or loopback protect (the puller's rule).
 */
export function upstreamDecisionsCovering(db: Db, address: string, now: number): UpstreamCovering[] {
  if (!pulling(db)) return [];
  const rows = statement(
    db,
    'SELECT value, scenario, origin, MAX(expires_at) AS expires_at FROM crowdsec_upstream_decisions ' +
      "WHERE expires_at > ? AND (value = ? OR instr(value, '/') > 0) GROUP BY value ORDER BY expires_at DESC",
  ).all(now, address) as Row[];
  const covering = rows.filter((row) => row.value === address || cidrContains(row.value, address));
  if (covering.length === 0) return [];
  const protectedValues = protectedValuesAt(db, now);
  return covering
    .filter((row) => !protectedValues.isProtected(row.value))
    .map((row) => ({
      value: row.value,
      scope: row.value.includes('/') ? 'Range' : 'Ip',
      origin: row.origin,
      scenario: row.scenario,
      secondsLeft: Math.max(1, Math.ceil((row.expires_at - now) / 1000)),
    }));
}
