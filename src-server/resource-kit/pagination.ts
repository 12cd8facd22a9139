import type { Pagination } from '../wire/envelope.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export type PageRequest = { limit: number; offset: number } | null;

/**
 * The page a list asked for: `limit` and `offset` apply only when given (default limit 50), null
 * when neither is. Their range was checked by the declared schema (contract.ts PAGE_QUERY).
 */
export function pageOf(input: { limit?: string; offset?: string }): PageRequest {
  if (input.limit === undefined && input.offset === undefined) return null;
  return {
    limit: input.limit === undefined ? DEFAULT_LIMIT : Number(input.limit),
    offset: input.offset === undefined ? 0 : Number(input.offset),
  };
}

export function paginationOf(total: number, page: PageRequest, returned: number): Pagination {
  if (!page) return { total, limit: total, offset: 0, hasMore: false };
  return { total, limit: page.limit, offset: page.offset, hasMore: page.offset + returned < total };
}
