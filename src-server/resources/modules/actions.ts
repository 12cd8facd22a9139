import { moduleReports } from '../../modules/module-reports.ts';
import { readSetting } from '../../storage/settings.ts';
import { pageOf, paginationOf } from '../../resource-kit/pagination.ts';
import { ok, recordNotFound } from '../../resource-kit/results.ts';
import { defineActions, type ActionContext } from '../../resource-kit/types.ts';
import { modulesDeclaration } from './declaration.ts';

/** The reports the web thread wrote at start: workers never load modules' status by themselves. */
const reports = (ctx: ActionContext) => readSetting(ctx.db, moduleReports);

export const modulesActions = defineActions(modulesDeclaration, {
  getList: (ctx) => {
    const page = pageOf(ctx.input);
    const all = reports(ctx);
    const data = page ? all.slice(page.offset, page.offset + page.limit) : all;
    return ok(data, { pagination: paginationOf(all.length, page, data.length) });
  },
  getRecord: (ctx) => {
    const found = reports(ctx).find((r) => r.name === ctx.id);
    return found ? ok(found) : recordNotFound('modules', ctx.id!);
  },
});
