import { FirewallState } from '../firewall/firewall-state.ts';
import { readSetting } from '../storage/settings.ts';
import type { Db } from '../storage/database.ts';
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

/** Whether the link pulls (what it pulled is enforced only then). */
function pulling(db: Db): boolean {
  const settings = readSetting<Record<string, unknown>>(db, CROWDSEC_LINK_SETTING_KEY);
  return settings?.enabled === true && settings.pullEnabled === true && Boolean(settings.url);
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
  if (!row || new ProtectedValues(new FirewallState(db, { now: () => now })).isProtected(value)) return undefined;
  return (
    `${value} stays banned by the upstream CrowdSec LAPI (${row.origin}: ${row.scenario}): lift it there ` +
    `(cscli decisions delete --ip ${value}), or whitelist it here to ignore it on this PBX.`
  );
}

interface Row {
  value: string;
  scenario: string;
  origin: string;
  expires_at: number;
}

/**
 * The upstream bans this PBX enforces now (runs in a worker, from what the link keeps in SQLite):
 * none while pulling is off; for each value its longest decision in force, unless loopback, the
 * whitelist or a trusted network protects it (the puller's own rule). Longest-lasting first, at
 * most `limit`; `total` counts them all.
 */
export function listUpstreamBans(
  db: Db,
  now: number,
  limit = UPSTREAM_LIST_LIMIT,
): { bans: UpstreamBan[]; total: number } {
  if (!pulling(db)) return { bans: [], total: 0 };
  // SQLite takes the bare columns from the row that holds the MAX: each value's longest decision.
  const rows = db
    .prepare(
      'SELECT value, scenario, origin, MAX(expires_at) AS expires_at FROM crowdsec_upstream_decisions ' +
        'WHERE expires_at > ? GROUP BY value ORDER BY expires_at DESC, value',
    )
    .all(now) as Row[];
  const protectedValues = new ProtectedValues(new FirewallState(db, { now: () => now }));
  const bans: UpstreamBan[] = [];
  let total = 0;
  for (const row of rows) {
    if (protectedValues.isProtected(row.value)) continue;
    total++;
    if (bans.length >= limit) continue;
    bans.push({
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
    });
  }
  return { bans, total };
}
