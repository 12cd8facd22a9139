import type { FilterCategory } from '../../firewall/filters.ts';
import { loadFilter, loadFilters } from '../../firewall/filter-store.ts';
import { parsePageRequest, paginationOf } from '../../resource-kit/pagination.ts';
import { invalid, ok, recordNotFound } from '../../resource-kit/results.ts';
import type { ResourceActions } from '../../resource-kit/types.ts';
import { networkFiltersDeclaration } from './declaration.ts';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

export const networkFiltersActions: ResourceActions = {
  getList: (ctx) => {
    const page = parsePageRequest(ctx.query);
    if (page && 'errors' in page) return invalid(page.errors);
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
      const raw = single(ctx.query.category);
      // The declared input refused anything but a category (in any case) or nothing.
      const category = raw === undefined || raw === '' ? undefined : raw.toUpperCase();
      const filters = loadFilters(ctx.db).filter(
        (f) => category === undefined || f.rules[category as FilterCategory] === 'allow',
      );
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
};
