import { banHistory, listActiveBans } from '../../firewall/ban-queries.ts';
import { readFail2ban } from '../../firewall/fail2ban-settings.ts';
import { defaultRules, DEFAULT_DENY, loadFilter, loadFilters } from '../../firewall/filters.ts';
import { composeWhitelist } from '../../firewall/whitelist.ts';
import { parsePageRequest, paginationOf } from '../pagination.ts';
import { created, invalid, ok, recordNotFound } from '../results.ts';
import type { SaveMode } from '../save.ts';
import type { ActionContext, ActionHandler, ResourceActions } from '../types.ts';
import { bouncerStatus } from './bouncer-status.ts';
import { banIp, getBanLog, unbanIp, unbanIps } from './manual-bans.ts';
import { firewallDeclaration } from './declaration.ts';
import { prepareFilterSave } from './filter-save.ts';

const NAME = firewallDeclaration.name;
const changed = (ctx: ActionContext) => ctx.emit({ type: 'resource-changed', resource: NAME });
const validId = (id: string | undefined) => id !== undefined && /^\d{1,15}$/.test(id);

/** Filters are read in the shape `loadFilters` returns (ARCHITECTURE read shape). */
const getList: ActionHandler = (ctx) => {
  const page = parsePageRequest(ctx.query);
  if (page && 'errors' in page) return invalid(page.errors);
  const all = loadFilters(ctx.db);
  const data = page ? all.slice(page.offset, page.offset + page.limit) : all;
  return ok(data, { pagination: paginationOf(all.length, page, data.length) });
};

const getRecord: ActionHandler = (ctx) => {
  const filter = validId(ctx.id) ? loadFilter(ctx.db, ctx.id!) : undefined;
  return filter ? ok(filter) : recordNotFound(NAME, ctx.id ?? '');
};

const save =
  (mode: SaveMode): ActionHandler =>
  (ctx) =>
    ctx.db.transaction(() => {
      const existing = mode === 'create' ? undefined : validId(ctx.id) ? loadFilter(ctx.db, ctx.id!) : undefined;
      if (mode !== 'create' && !existing) return recordNotFound(NAME, ctx.id ?? '');
      const outcome = prepareFilterSave(ctx, mode, existing);
      if (!outcome.ok) return invalid(outcome.errors);
      const { row } = outcome;
      if (mode === 'create') {
        const info = ctx.db
          .prepare(
            'INSERT INTO network_filters (permit, deny, description, newer_block_ip, local_network, rules) VALUES (@permit, @deny, @description, @newer_block_ip, @local_network, @rules)',
          )
          .run(row);
        changed(ctx);
        return created(loadFilter(ctx.db, Number(info.lastInsertRowid)));
      }
      ctx.db
        .prepare(
          'UPDATE network_filters SET permit = @permit, deny = @deny, description = @description, newer_block_ip = @newer_block_ip, local_network = @local_network, rules = @rules WHERE id = @id',
        )
        .run({ ...row, id: existing!.id });
      changed(ctx);
      return ok(loadFilter(ctx.db, existing!.id));
    })();

const remove: ActionHandler = (ctx) => {
  const existing = validId(ctx.id) ? loadFilter(ctx.db, ctx.id!) : undefined;
  if (!existing) return recordNotFound(NAME, ctx.id ?? '');
  ctx.db.prepare('DELETE FROM network_filters WHERE id = ?').run(existing.id);
  changed(ctx);
  return ok({ id: existing.id });
};

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

export const firewallActions: ResourceActions = {
  getList,
  getRecord,
  create: save('create'),
  update: save('update'),
  patch: save('patch'),
  delete: remove,
  custom: {
    getDefault: () =>
      ok({ id: '', permit: '', deny: DEFAULT_DENY, description: '', newer_block_ip: false, local_network: false, rules: defaultRules() }),
    getBannedIps: (ctx) => ok(listActiveBans(ctx.db, ctx.now())),
    banIp,
    unbanIp,
    unbanIps,
    getBanLog,
    getBouncerStatus: (ctx) => ok(bouncerStatus(ctx.db, ctx.now())),
    getBanHistory: (ctx) => {
      const raw = single(ctx.query.minutes);
      const minutes = raw === undefined ? 60 : Number(raw);
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) return invalid(['minutes must be an integer from 1 to 1440.']);
      return ok({ points: banHistory(ctx.db, ctx.now(), minutes) });
    },
    getWhitelist: (ctx) => ok(composeWhitelist(loadFilters(ctx.db), readFail2ban(ctx.db))),
  },
};
