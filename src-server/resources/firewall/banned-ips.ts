import { listActiveBans } from '../../firewall/ban-queries.ts';
import { deliveryLookup, scenarioOfBan } from '../../firewall/delivery.ts';
import { listUpstreamBans, UPSTREAM_LIST_LIMIT } from '../../upstream/upstream-bans.ts';
import { ok } from '../../resource-kit/results.ts';
import type { ActionHandler } from '../../resource-kit/types.ts';

/**
 * `firewall:getBannedIps`: this PBX's own bans (intrusion and manual), then the upstream LAPI
 * decisions it enforces (category `upstream`, marked `upstream: {origin, scenario, liftable:
 * false}`), each with its delivery to this PBX's bouncers. Upstream bans are listed up to
 * UPSTREAM_LIST_LIMIT and counted apart: `pagination.total` counts every ban in force, so the
 * upstream count is `total` minus the bans of this PBX.
 */
export const getBannedIps: ActionHandler = (ctx) => {
  const now = ctx.now();
  const delivered = deliveryLookup(ctx.db, now);
  const own = listActiveBans(ctx.db, now).map((ban) => ({
    ...ban,
    delivery: delivered(ban.ip, scenarioOfBan(ban.category)),
  }));
  const upstream = listUpstreamBans(ctx.db, now);
  const listed = upstream.bans.map((ban) => ({ ...ban, delivery: delivered(ban.ip, ban.upstream.scenario) }));
  const total = own.length + upstream.total;
  return ok([...own, ...listed], {
    pagination: { total, limit: own.length + UPSTREAM_LIST_LIMIT, offset: 0, hasMore: upstream.total > listed.length },
  });
};
