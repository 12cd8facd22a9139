import { lookupAddress, type AddressLookup, type CoveringDecision } from '../../firewall/address-lookup.ts';
import { deliveryLookup } from '../../firewall/export/index.ts';
import { upstreamDecisionsCovering } from '../../upstream/upstream-bans.ts';
import {
  banHistory,
  coverAuditChanges,
  coverEvents,
  coverMessages,
  liftBansCoveredBy,
} from '../../firewall/bans/index.ts';
import {
  composeWhitelist,
  DEFAULT_DENY,
  defaultRules,
  insertFilter,
  loadFilter,
  loadFilters,
  type NetworkFilter,
  readFail2ban,
  removeFilter,
  updateFilter,
} from '../../firewall/filters/index.ts';
import { parseCidr } from '../../net/cidr.ts';
import type { ActionResult, Messages } from '../../wire/envelope.ts';
import { recordActions } from '../../resource-kit/crud.ts';
import { failure, invalid, ok } from '../../resource-kit/results.ts';
import { defineActions, type ActionContext } from '../../resource-kit/types.ts';
import { getBanCounts, getBannedIps } from './banned-ips.ts';
import { bouncerStatus, redactBouncerStatus } from './bouncer-status.ts';
import { actorOf } from '../../resource-kit/actor.ts';
import { boundKeyRefusal, deleteFilter } from './bound-keys.ts';
import { banIp, getBanLog, unbanIp, unbanIps } from './manual-bans.ts';
import { getPhoneProtection } from './phone-protection.ts';
import { unbanAndWhitelist } from './unban-and-whitelist.ts';
import { exportBans, importBans } from './ban-transfer.ts';
import { firewallDeclaration } from './declaration.ts';
import { prepareFilterSave } from './filter-save.ts';

const validId = (id: string | undefined) => id !== undefined && /^\d{1,15}$/.test(id);

/** Network filters: read in the shape `loadFilters` returns (ARCHITECTURE read shape), saved by `prepareFilterSave`. */
const filterActions = recordActions<NetworkFilter>(firewallDeclaration, {
  load: (ctx, id) => (validId(id) ? loadFilter(ctx.db, id!) : undefined),
  list: (ctx, page) => {
    const all = loadFilters(ctx.db);
    return { total: all.length, records: page ? all.slice(page.offset, page.offset + page.limit) : all };
  },
  present: (filter) => ({ ...filter }),
  write: (ctx, mode, existing) => {
    const outcome = prepareFilterSave(ctx, mode, existing);
    if (!outcome.ok) return invalid(outcome.errors);
    const { row } = outcome;
    const refusal = existing && boundKeyRefusal(ctx, existing, row);
    if (refusal) return failure(403, refusal);
    let id: number;
    if (mode === 'create') id = insertFilter(ctx.db, row);
    else {
      id = existing!.id;
      updateFilter(ctx.db, id, row);
    }
    return { id, ...liftTrusted(ctx, row) };
  },
  // Never reached: `delete` is deleteFilter (bound keys are refused or moved first).
  remove: (ctx, filter) => {
    removeFilter(ctx.db, filter.id);
    return filter.id;
  },
});

/** A trusted network lifts the bans in force inside it, in the same transaction (issue 19 item 6). */
function liftTrusted(
  ctx: ActionContext,
  row: { permit: string; newer_block_ip: number },
): { messages?: Messages; auditChanges?: ActionResult['auditChanges'] } {
  const cidr = row.newer_block_ip ? parseCidr(row.permit) : undefined;
  if (!cidr) return {};
  const cover = liftBansCoveredBy(ctx.db, [{ text: row.permit, cidr }], ctx.now(), actorOf(ctx), 'trusted');
  for (const event of coverEvents(cover)) ctx.emit(event);
  const messages = coverMessages(cover);
  return messages.info.length || messages.warning.length ? { messages, auditChanges: coverAuditChanges(cover) } : {};
}

/** "Why is this address blocked?" with the upstream CrowdSec decisions this PBX enforces on it too (not liftable here). */
function withUpstream(ctx: ActionContext, lookup: AddressLookup): AddressLookup {
  const upstream = upstreamDecisionsCovering(ctx.db, lookup.address, ctx.now());
  if (upstream.length === 0) return lookup;
  const delivered = deliveryLookup(ctx.db, ctx.now());
  const decisions: CoveringDecision[] = upstream.map((d) => ({
    value: d.value,
    scenario: d.scenario,
    origin: d.origin,
    scope: d.scope,
    source: 'upstream',
    upstream: { origin: d.origin, scenario: d.scenario, liftable: false },
    secondsLeft: d.secondsLeft,
    delivery: delivered(d.value, d.scenario),
  }));
  return { ...lookup, blocked: true, decisions: [...lookup.decisions, ...decisions] };
}

export const firewallActions = defineActions(firewallDeclaration, {
  ...filterActions,
  delete: deleteFilter,
  custom: {
    getDefault: () =>
      ok({
        id: '',
        permit: '',
        deny: DEFAULT_DENY,
        description: '',
        newer_block_ip: false,
        local_network: false,
        rules: defaultRules(),
      }),
    getBannedIps,
    getBanCounts,
    getPhoneProtection,
    lookup: (ctx) => {
      const outcome = lookupAddress(ctx.db, ctx.now(), ctx.input.ip);
      return outcome.ok ? ok(withUpstream(ctx, outcome.lookup)) : failure(400, outcome.message);
    },
    banIp,
    unbanIp,
    unbanIps,
    unbanAndWhitelist,
    getBanLog,
    importBans,
    exportBans,
    getBouncerStatus: (ctx) => {
      const overview = bouncerStatus(ctx.db, ctx.now());
      // Who runs which bouncer where is SENSITIVE; states and counts are READ (docs/auth.md).
      return ok(ctx.canReadSensitive ? overview : redactBouncerStatus(overview));
    },
    getBanHistory: (ctx) => {
      return ok({ points: banHistory(ctx.db, ctx.now(), ctx.input.minutes) });
    },
    getWhitelist: (ctx) => ok(composeWhitelist(loadFilters(ctx.db), readFail2ban(ctx.db), ctx.now())),
  },
});
