import { activeBanCounts, type ActiveBanFilter, activeBansPage } from '../../firewall/bans/index.ts';
import { deliveryLookup, scenarioOfBan } from '../../firewall/export/index.ts';
import { listUpstreamBans, UPSTREAM_LIST_LIMIT } from '../../upstream/upstream-bans.ts';
import { pageOf, paginationOf } from '../../resource-kit/pagination.ts';
import { ok } from '../../resource-kit/results.ts';
import type { FirewallAction } from './declaration.ts';

/**
 * `firewall:getBannedIps?search=&category=&limit=&offset=`: this PBX's own bans (intrusion and
 * manual, newest first), then the upstream LAPI decisions it enforces (category `upstream`,
 * longest-lasting first, marked `upstream: {origin, scenario, liftable: false}`), each with its
 * delivery to this PBX's bouncers. With `limit`/`offset` the answer is that page of the two lists
 * one after the other, and `pagination.total` counts every match. Without them every own ban is
 * listed, and upstream bans up to UPSTREAM_LIST_LIMIT (a community blocklist holds tens of
 * thousands); `pagination.total` still counts them all.
 */
export const getBannedIps: FirewallAction<'getBannedIps'> = (ctx) => {
  const page = pageOf(ctx.input);
  const now = ctx.now();
  const { search, category } = ctx.input;
  const ownFilter: ActiveBanFilter = { search, ...(category && category !== 'upstream' ? { category } : {}) };
  const wantsOwn = category !== 'upstream';
  const wantsUpstream = !category || category === 'upstream';
  const delivered = deliveryLookup(ctx.db, now);
  const limit = page?.limit ?? Number.MAX_SAFE_INTEGER;
  const offset = page?.offset ?? 0;
  const own = wantsOwn ? activeBansPage(ctx.db, now, ownFilter, { limit, offset }) : { bans: [], total: 0 };
  // The upstream part of the page starts where this PBX's own bans end.
  const upstreamOffset = Math.max(0, offset - own.total);
  const upstreamLimit = page ? limit - own.bans.length : UPSTREAM_LIST_LIMIT;
  const upstream = wantsUpstream
    ? listUpstreamBans(ctx.db, now, upstreamLimit, upstreamOffset, search)
    : { bans: [], total: 0 };
  const rows = [
    ...own.bans.map((ban) => ({ ...ban, delivery: delivered(ban.ip, scenarioOfBan(ban.category)) })),
    ...upstream.bans.map((ban) => ({ ...ban, delivery: delivered(ban.ip, ban.upstream.scenario) })),
  ];
  const total = own.total + upstream.total;
  if (page) return ok(rows, { pagination: paginationOf(total, page, rows.length) });
  return ok(rows, {
    pagination: {
      total,
      limit: own.total + UPSTREAM_LIST_LIMIT,
      offset: 0,
      hasMore: upstream.total > upstream.bans.length,
    },
  });
};

/**
 * `firewall:getBanCounts?search=`: how many bans in force match, in each category (upstream apart),
 * and when the newest of this PBX's own started: the Bans screen's category counts and the
 * dashboard's summary, without reading the rows.
 */
export const getBanCounts: FirewallAction<'getBanCounts'> = (ctx) => {
  const now = ctx.now();
  const { search } = ctx.input;
  const own = activeBanCounts(ctx.db, now, search);
  const upstream = listUpstreamBans(ctx.db, now, 0, 0, search).total;
  const ownTotal = Object.values(own.byCategory).reduce((sum, n) => sum + n, 0);
  return ok({
    total: ownTotal + upstream,
    categories: { ...own.byCategory, upstream },
    newestBannedAt: own.newestBannedAt === null ? null : new Date(own.newestBannedAt).toISOString(),
  });
};
