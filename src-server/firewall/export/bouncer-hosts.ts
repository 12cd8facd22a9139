import type { Clock } from '../../clock.ts';
import { tryBackgroundWrite } from '../../storage/background-write.ts';
import type { Db } from '../../storage/database.ts';
import { emptyReport, foldReport, type BouncerReport, type UsageMetrics } from './usage-metrics.ts';
import { apiKeyIds } from '../../storage/api-key-rows.ts';
import { deleteRowsOfRevokedKeys } from './bouncer-keys.ts';

/** One bouncer as the LAPI names it, `key@ip`: a key used from one source address. */
interface HostRecord {
  keyId: number;
  ip: string;
  firstSeen: number;
  lastSeen: number;
  polls: number;
  userAgent: string;
  report: BouncerReport;
  metricsAt: number | null;
}

/** A source refused on the bouncer export, so the operator can see why a bouncer stopped. */
interface Rejection {
  ip: string;
  keyId: number | null;
  reason: string;
  firstAt: number;
  lastAt: number;
  count: number;
  clearedAt: number | null;
}

const hostKey = (keyId: number, ip: string) => `${keyId}@${ip}`;

/**
 * Per (key, source address): first and last poll, poll count, User-Agent and the usage metrics it
 * reports; and the sources refused on the export. Kept in memory and written in batches (at most
 * once a second), so polling costs no disk write.
 */
/** A row of `bouncer_hosts`: one (API key, source address) a bouncer polled from. */
export interface BouncerHostRow {
  key_id: number;
  ip: string;
  first_seen: number;
  last_seen: number;
  polls: number;
  user_agent: string;
  /** The last usage-metrics report (JSON), if the bouncer sends them. */
  metrics: string | null;
  metrics_at: number | null;
}

/** A row of `bouncer_rejections`: a source refused on the export (times in epoch ms). */
export interface BouncerRejectionRow {
  ip: string;
  key_id: number | null;
  reason: string;
  first_at: number;
  last_at: number;
  count: number;
  cleared_at: number | null;
}

/** Every host row, the most recently seen first (the bouncer overview reads the stored rows). */
export function hostRowsBySeen(db: Db): BouncerHostRow[] {
  return db.prepare('SELECT * FROM bouncer_hosts ORDER BY last_seen DESC').all() as BouncerHostRow[];
}

/** The 100 newest refusals not since cleared by a served poll. */
export function openRejectionRows(db: Db): BouncerRejectionRow[] {
  return db
    .prepare('SELECT * FROM bouncer_rejections WHERE cleared_at IS NULL ORDER BY last_at DESC LIMIT 100')
    .all() as BouncerRejectionRow[];
}

export class BouncerHosts {
  private readonly hosts = new Map<string, HostRecord>();
  private readonly rejections = new Map<string, Rejection>();
  private readonly dirtyHosts = new Set<string>();
  /** Rejections whose write-through failed (the database locked): written at the next flush. */
  private readonly dirtyRejections = new Set<string>();
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly onWriteError: (error: unknown) => void = () => {},
  ) {
    this.statements = {
      host: db.prepare(
        `INSERT INTO bouncer_hosts (key_id, ip, first_seen, last_seen, polls, user_agent, metrics, metrics_at)
         VALUES (@keyId, @ip, @firstSeen, @lastSeen, @polls, @userAgent, @metrics, @metricsAt)
         ON CONFLICT(key_id, ip) DO UPDATE SET last_seen = excluded.last_seen, polls = excluded.polls,
           user_agent = excluded.user_agent, metrics = excluded.metrics, metrics_at = excluded.metrics_at`,
      ),
      rejection: db.prepare(
        `INSERT INTO bouncer_rejections (ip, key_id, reason, first_at, last_at, count, cleared_at)
         VALUES (@ip, @keyId, @reason, @firstAt, @lastAt, @count, @clearedAt)
         ON CONFLICT(ip) DO UPDATE SET key_id = excluded.key_id, reason = excluded.reason, first_at = excluded.first_at,
           last_at = excluded.last_at, count = excluded.count, cleared_at = excluded.cleared_at`,
      ),
    };
    const rows = db.prepare('SELECT * FROM bouncer_hosts').all() as BouncerHostRow[];
    for (const row of rows) {
      let report = emptyReport();
      try {
        if (row.metrics) report = { ...report, ...(JSON.parse(row.metrics) as BouncerReport) };
      } catch {
        // An unreadable report starts over; the next one rewrites it.
      }
      this.hosts.set(hostKey(row.key_id, row.ip), {
        keyId: row.key_id,
        ip: row.ip,
        firstSeen: row.first_seen,
        lastSeen: row.last_seen,
        polls: row.polls,
        userAgent: row.user_agent,
        report,
        metricsAt: row.metrics_at,
      });
    }
    const rejected = db.prepare('SELECT * FROM bouncer_rejections').all() as BouncerRejectionRow[];
    for (const row of rejected) {
      this.rejections.set(row.ip, {
        ip: row.ip,
        keyId: row.key_id,
        reason: row.reason,
        firstAt: row.first_at,
        lastAt: row.last_at,
        count: row.count,
        clearedAt: row.cleared_at,
      });
    }
  }

  private host(keyId: number, ip: string): HostRecord {
    const id = hostKey(keyId, ip);
    let record = this.hosts.get(id);
    if (!record) {
      const now = this.clock.now();
      this.hosts.set(
        id,
        (record = {
          keyId,
          ip,
          firstSeen: now,
          lastSeen: now,
          polls: 0,
          userAgent: '',
          report: emptyReport(),
          metricsAt: null,
        }),
      );
    }
    this.dirtyHosts.add(id);
    return record;
  }

  /** A served poll. */
  polled(keyId: number, ip: string, userAgent: string): void {
    const record = this.host(keyId, ip);
    record.lastSeen = this.clock.now();
    record.polls++;
    record.userAgent = userAgent.slice(0, 256);
  }

  /** A usage-metrics report. */
  reported(keyId: number, ip: string, metrics: UsageMetrics, userAgent: string): void {
    const record = this.host(keyId, ip);
    record.report = foldReport(record.report, metrics);
    record.metricsAt = this.clock.now();
    record.lastSeen = record.metricsAt;
    if (userAgent) record.userAgent = userAgent.slice(0, 256);
  }

  /** A refused request on the export (wrong key, wrong source, banned source). */
  rejected(ip: string, keyId: number | null, reason: string): void {
    const now = this.clock.now();
    const previous = this.rejections.get(ip);
    const open = previous && previous.clearedAt === null;
    this.rejections.set(ip, {
      ip,
      keyId: keyId ?? previous?.keyId ?? null,
      reason: reason.slice(0, 300),
      firstAt: open ? previous.firstAt : now,
      lastAt: now,
      count: open ? previous.count + 1 : 1,
      clearedAt: null,
    });
    // Written through: the operator must see a refused bouncer at once, and refusals are rare.
    this.writeRejection(ip);
  }

  /** Writes one rejection now, or leaves it for the next flush when the database is locked. */
  private writeRejection(ip: string): void {
    const rejection = this.rejections.get(ip);
    if (!rejection) return;
    this.dirtyRejections.add(ip);
    if (tryBackgroundWrite(this.db, () => this.statements.rejection.run(rejection), this.onWriteError))
      this.dirtyRejections.delete(ip);
  }

  /** A source that was refused and is now served with a valid key: its rejection is over. */
  cleared(ip: string): boolean {
    const rejection = this.rejections.get(ip);
    if (!rejection || rejection.clearedAt !== null) return false;
    rejection.clearedAt = this.clock.now();
    this.writeRejection(ip);
    return true;
  }

  /**
   * Sources that were served before and are now refused with a key the export does not know
   * (rotated or revoked): a bouncer left with an old key, not a scanner. With the keys that served
   * them, newest first. Refusals older than `since` are over (the bouncer stopped trying).
   */
  refusedFormerHosts(since: number): Array<{ ip: string; reason: string; count: number; keyIds: number[] }> {
    const out = [];
    let byIp: Map<string, HostRecord[]> | undefined;
    for (const rejection of this.rejections.values()) {
      if (rejection.clearedAt !== null || rejection.keyId !== null || rejection.lastAt < since) continue;
      if (!byIp) {
        // Built once per call, only when an unknown key is being refused: one pass over the hosts.
        byIp = new Map();
        for (const host of this.hosts.values()) byIp.set(host.ip, [...(byIp.get(host.ip) ?? []), host]);
      }
      const served = (byIp.get(rejection.ip) ?? [])
        .filter((host) => host.lastSeen <= rejection.firstAt)
        .sort((a, b) => b.lastSeen - a.lastSeen);
      if (served.length)
        out.push({
          ip: rejection.ip,
          reason: rejection.reason,
          count: rejection.count,
          keyIds: served.map((h) => h.keyId),
        });
    }
    return out;
  }

  /** Writes what changed since the last flush, in one transaction; throws (keeping it all pending) when it cannot. */
  flush(): void {
    if (this.dirtyHosts.size === 0 && this.dirtyRejections.size === 0) return;
    const ids = [...this.dirtyHosts];
    const ips = [...this.dirtyRejections];
    this.db.transaction(() => {
      for (const id of ids) {
        const h = this.hosts.get(id);
        if (!h) continue;
        this.statements.host.run({
          keyId: h.keyId,
          ip: h.ip,
          firstSeen: h.firstSeen,
          lastSeen: h.lastSeen,
          polls: h.polls,
          userAgent: h.userAgent,
          metrics: JSON.stringify(h.report),
          metricsAt: h.metricsAt,
        });
      }
      for (const ip of ips) {
        const rejection = this.rejections.get(ip);
        if (rejection) this.statements.rejection.run(rejection);
      }
    })();
    for (const id of ids) this.dirtyHosts.delete(id);
    for (const ip of ips) this.dirtyRejections.delete(ip);
  }

  /** Drops the hosts of keys that no longer exist, and refusals over and done for a week. */
  prune(now: number): void {
    this.flush();
    const weekAgo = now - 7 * 24 * 60 * 60 * 1000;
    for (const [ip, r] of this.rejections) if (r.lastAt < weekAgo) this.rejections.delete(ip);
    this.db.prepare('DELETE FROM bouncer_rejections WHERE last_at < ?').run(weekAgo);
    const existing = new Set(apiKeyIds(this.db));
    for (const [id, record] of this.hosts) if (!existing.has(record.keyId)) this.hosts.delete(id);
    deleteRowsOfRevokedKeys(this.db, 'bouncer_hosts');
  }
}
