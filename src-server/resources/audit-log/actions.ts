import {
  AUDIT_CHANNELS,
  AUDIT_KINDS,
  findAuditEntry,
  queryAuditLog,
  type AuditKind,
  type AuditQuery,
} from '../../audit/store.ts';
import { DEFAULT_LIMIT, parsePageRequest, paginationOf } from '../../resource-kit/pagination.ts';
import { invalid, ok, recordNotFound } from '../../resource-kit/results.ts';
import type { ResourceActions } from '../../resource-kit/types.ts';
import { auditLogDeclaration } from './declaration.ts';

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[value.length - 1] : value);

/** An ISO 8601 time or epoch milliseconds. */
function parseTime(raw: string): number | undefined {
  if (/^\d{1,15}$/.test(raw)) return Number(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw)) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The list's filters, or the problems with them (422). */
export function parseAuditQuery(
  query: Record<string, string | string[]>,
): Omit<AuditQuery, 'limit' | 'offset'> | { errors: string[] } {
  const errors: string[] = [];
  const text = (name: string) => {
    const value = single(query[name])?.trim();
    if (value !== undefined && value.length > 200) errors.push(`${name} must be at most 200 characters.`);
    return value || undefined;
  };
  const out: Omit<AuditQuery, 'limit' | 'offset'> = {};
  const search = text('search');
  const actor = text('actor');
  const resource = text('resource');
  if (search) out.search = search;
  if (actor) out.actor = actor;
  if (resource) out.resource = resource;
  const channel = text('channel');
  if (channel !== undefined) {
    if ((AUDIT_CHANNELS as readonly string[]).includes(channel)) out.channel = channel;
    else errors.push(`channel must be one of ${AUDIT_CHANNELS.join(', ')}.`);
  }
  const kind = text('kind');
  if (kind !== undefined) {
    if ((AUDIT_KINDS as readonly string[]).includes(kind)) out.kind = kind as AuditKind;
    else errors.push(`kind must be one of ${AUDIT_KINDS.join(', ')}.`);
  }
  for (const name of ['since', 'until'] as const) {
    const raw = text(name);
    if (raw === undefined) continue;
    const at = parseTime(raw);
    if (at === undefined) errors.push(`${name} must be an ISO 8601 time or epoch milliseconds.`);
    else out[name] = at;
  }
  if (out.since !== undefined && out.until !== undefined && out.since > out.until)
    errors.push('since must not be after until.');
  return errors.length ? { errors } : out;
}

export const auditLogActions: ResourceActions = {
  getList: (ctx) => {
    const page = parsePageRequest(ctx.query);
    const filters = parseAuditQuery(ctx.query);
    const errors = [...(page && 'errors' in page ? page.errors : []), ...('errors' in filters ? filters.errors : [])];
    if (errors.length) return invalid(errors);
    // The log grows without bound, so a list without limit gets the default page.
    const window = page && !('errors' in page) ? page : { limit: DEFAULT_LIMIT, offset: 0 };
    const { total, entries } = queryAuditLog(ctx.db, {
      ...(filters as Omit<AuditQuery, 'limit' | 'offset'>),
      ...window,
    });
    return ok(entries, { pagination: paginationOf(total, window, entries.length) });
  },
  getRecord: (ctx) => {
    const entry = ctx.id && /^\d{1,15}$/.test(ctx.id) ? findAuditEntry(ctx.db, Number(ctx.id)) : undefined;
    return entry ? ok(entry) : recordNotFound(auditLogDeclaration.name, ctx.id ?? '');
  },
};
