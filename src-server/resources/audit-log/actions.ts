import { findAuditEntry, queryAuditLog } from '../../audit/store.ts';
import { DEFAULT_LIMIT, pageOf, paginationOf } from '../../resource-kit/pagination.ts';
import { ok, recordNotFound } from '../../resource-kit/results.ts';
import { defineActions } from '../../resource-kit/types.ts';
import { auditLogDeclaration } from './declaration.ts';

export const auditLogActions = defineActions(auditLogDeclaration, {
  getList: (ctx) => {
    const { limit, offset, ...filters } = ctx.input;
    // The log grows without bound, so a list without limit gets the default page.
    const window = pageOf({ limit, offset }) ?? { limit: DEFAULT_LIMIT, offset: 0 };
    const { total, entries } = queryAuditLog(ctx.db, { ...filters, ...window });
    return ok(entries, { pagination: paginationOf(total, window, entries.length) });
  },
  getRecord: (ctx) => {
    const entry = ctx.id && /^\d{1,15}$/.test(ctx.id) ? findAuditEntry(ctx.db, Number(ctx.id)) : undefined;
    return entry ? ok(entry) : recordNotFound(auditLogDeclaration.name, ctx.id ?? '');
  },
});
