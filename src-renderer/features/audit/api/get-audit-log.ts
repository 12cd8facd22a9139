import type { Query, RecordOf } from '#shared/contract/types.ts';
import { filterQuery, type QueryFilter } from '../../../lib/query-filter.ts';
import { getLogPage, useLogPage } from '../../../lib/query-hooks.ts';

/** One audit log entry: a write, a rejected API key use or a failed login (secrets in `diff` arrive masked). */
export type AuditEntry = RecordOf<'AuditLog'>;
export type AuditKind = AuditEntry['kind'];
export type AuditChannel = NonNullable<AuditEntry['channel']>;
/** One changed field. */
export type AuditChange = AuditEntry['diff'][number];

/** The audit screen's filter: search, kind, channel, resource and the ISO time bounds ('' for any), and the page. */
export type AuditFilter = QueryFilter<
  Query<'audit-log.getList'>,
  'search' | 'kind' | 'channel' | 'resource' | 'since' | 'until' | 'limit' | 'offset'
>;

/** Every page and filter of the audit log shares this prefix. */
export const auditLogKey = ['audit-log'] as const;

/** GET audit-log: one page, newest first, filtered on the server. */
export const getAuditLog = (filter: AuditFilter) => getLogPage('audit-log.getList', filterQuery(filter));

export const useAuditLog = (filter: AuditFilter) => useLogPage(auditLogKey, filter, getAuditLog);

/** Every entry the filter matches, newest first, page by page (the server gives at most 1000 at a time). */
export async function getAllAuditEntries(filter: Omit<AuditFilter, 'limit' | 'offset'>): Promise<AuditEntry[]> {
  const all: AuditEntry[] = [];
  for (let offset = 0; ; offset += 1000) {
    const { rows, total } = await getAuditLog({ ...filter, limit: 1000, offset });
    all.push(...rows);
    if (rows.length === 0 || all.length >= total) return all;
  }
}
