import { loadFilter, loadFilters } from '../../firewall/filters/index.ts';
import { pageOf, paginationOf } from '../../resource-kit/pagination.ts';
import { ok, recordNotFound } from '../../resource-kit/results.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { networkFiltersDeclaration } from './declaration.ts';

export const networkFiltersActions = defineActions(networkFiltersDeclaration, {
  getList: (ctx) => {
    const page = pageOf(ctx.input);
    const all = loadFilters(ctx.db);
    const data = page ? all.slice(page.offset, page.offset + page.limit) : all;
    return ok(data, { pagination: paginationOf(all.length, page, data.length) });
  },
  getRecord: (ctx) => {
    const filter = ctx.id && /^\d{1,15}$/.test(ctx.id) ? loadFilter(ctx.db, ctx.id) : undefined;
    return filter ? ok(filter) : recordNotFound(networkFiltersDeclaration.name, ctx.id ?? '');
  },
  custom: {
    getForSelect: (ctx) => {
      const { category } = ctx.input;
      const filters = loadFilters(ctx.db).filter((f) => category === undefined || f.rules[category] === 'allow');
      return ok(
        filters.map((f) => ({
          value: String(f.id),
          text: f.description ? `${f.description} (${f.permit})` : f.permit,
          permit: f.permit,
          description: f.description,
        })),
      );
    },
  },
});
