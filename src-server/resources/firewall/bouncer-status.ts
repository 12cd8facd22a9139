import type { z } from 'zod';
import { activeCategoriesOf } from '../../firewall/bans/index.ts';
import {
  bouncerKeyRows,
  capOf,
  hostRowsBySeen,
  openRejectionRows,
  feedSilentAfterMs,
  isFeedKey,
  SILENT_AFTER_MS,
} from '../../firewall/export/index.ts';
import { apiKeyDescriptions } from '../../storage/api-key-rows.ts';

import type { Db } from '../../storage/database.ts';
import type { bouncerStatus as bouncerStatusOutput } from './contract.ts';

/** The answer of firewall:getBouncerStatus, as its declared output schema (contract.ts) describes it. */
type BouncerOverview = z.infer<typeof bouncerStatusOutput>;
/** Per API key: its state, the cursor's last poll and the hosts that used the key (the LAPI's `name@ip`). */
type BouncerStatus = BouncerOverview['bouncers'][number];
/**
 * A bouncer's state from its last attempt: `served` (its last poll was answered, within
 * SILENT_AFTER_MS, or three feed intervals for a router feed: a feed fetch is its poll), `refused` (its last poll was refused: see `refusal`), `silent` (no poll since
 * `lastPollAt`), or `never` (allowed on the export, never polled).
 */
type BouncerState = BouncerStatus['state'];
/** One source address a key polled from, with what it reports of itself. */
type BouncerHostStatus = BouncerStatus['hosts'][number];
/** A source refused on the export: why, how often, and whether a ban still locks it out. */
type BouncerRejection = BouncerOverview['rejections'][number];

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * `firewall:getBouncerStatus`: every key that has polled the export, plus keys allowed on it that
 * never did (lastPollAt null), in key id order, each with its hosts; and the sources refused on
 * the export in the last week that have not since been served, newest first.
 */
export function bouncerStatus(db: Db, now: number): { bouncers: BouncerStatus[]; rejections: BouncerRejection[] } {
  const keys = bouncerKeyRows(db);
  const keyNames = apiKeyDescriptions(db);
  const hostRows = hostRowsBySeen(db);
  const hostsByKey = new Map<number, BouncerHostStatus[]>();
  for (const row of hostRows) {
    let report: Partial<BouncerHostStatus> & { active?: number | null } = {};
    try {
      report = row.metrics ? (JSON.parse(row.metrics) as Partial<BouncerHostStatus>) : {};
    } catch {
      // An unreadable report shows as none.
    }
    const list = hostsByKey.get(row.key_id) ?? [];
    list.push({
      ip: row.ip,
      firstSeen: iso(row.first_seen)!,
      lastSeen: iso(row.last_seen)!,
      polls: row.polls,
      userAgent: row.user_agent,
      type: report.type ?? null,
      name: report.name ?? null,
      version: report.version ?? null,
      os: report.os ?? null,
      dropped: report.dropped ?? {},
      activeDecisions: typeof report.active === 'number' ? report.active : null,
      metricsAt: iso(row.metrics_at),
    });
    hostsByKey.set(row.key_id, list);
  }
  const bannedCategories = activeCategoriesOf(db);
  const rejections = openRejectionRows(db).map((row) => {
    const categories = bannedCategories(row.ip, now);
    return {
      ip: row.ip,
      keyId: row.key_id,
      keyDescription: row.key_id === null ? null : (keyNames.get(row.key_id) ?? null),
      reason: row.reason,
      firstAt: iso(row.first_at)!,
      lastAt: iso(row.last_at)!,
      count: row.count,
      clearedAt: iso(row.cleared_at),
      banned: categories.length > 0,
      bannedCategories: categories,
    };
  });
  return {
    bouncers: keys.map((row) => {
      const hosts = hostsByKey.get(row.keyId) ?? [];
      const ips = new Set([...hosts.map((h) => h.ip), row.last_poll_ip]);
      const silentAfter = isFeedKey({ lastPollAt: row.last_poll_at, lastFetchAt: row.last_fetch_at })
        ? feedSilentAfterMs(row.feed_interval_minutes)
        : SILENT_AFTER_MS;
      const refusedLast = row.refused_at !== null && (row.last_poll_at === null || row.refused_at > row.last_poll_at);
      const state: BouncerState = refusedLast
        ? 'refused'
        : row.last_poll_at === null
          ? 'never'
          : now - row.last_poll_at > silentAfter
            ? 'silent'
            : 'served';
      return {
        keyId: row.keyId,
        description: row.description,
        state,
        refusal: refusedLast
          ? {
              at: iso(row.refused_at)!,
              ip: row.refused_ip ?? '',
              code: row.refused_code ?? '',
              reason: row.refused_reason ?? '',
            }
          : null,
        lastPollAt: iso(row.last_poll_at),
        lastPollIp: row.last_poll_ip,
        polls: row.polls,
        lastNew: row.lastNew,
        lastDeleted: row.lastDeleted,
        lastFetchAt: iso(row.feed_at),
        cap: capOf(row.entry_cap, row.state_cap, row.left_out),
        hosts,
        refused: rejections.filter((r) => r.keyId === row.keyId || ips.has(r.ip)),
      };
    }),
    rejections,
  };
}

/**
 * The overview for a caller without SENSITIVE (a `read` or `write` key without full_permissions, a
 * viewer): states and counts stay, what maps this site's bouncer hosts goes. Descriptions become
 * `API key #<id>`, `lastPollIp` is null and `hosts` (served addresses, User-Agents, names,
 * versions, OS) is empty. Refused sources stay, as banned addresses do in getBannedIps.
 */
export function redactBouncerStatus(overview: BouncerOverview): BouncerOverview {
  const label = (keyId: number | null) => (keyId === null ? null : `API key #${keyId}`);
  const rejection = (r: BouncerRejection): BouncerRejection => ({ ...r, keyDescription: label(r.keyId) });
  return {
    bouncers: overview.bouncers.map((b) => ({
      ...b,
      description: label(b.keyId)!,
      lastPollIp: null,
      hosts: [],
      refused: b.refused.map(rejection),
    })),
    rejections: overview.rejections.map(rejection),
  };
}
