import type { Pagination } from '../wire/envelope.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 1000;

export type PageRequest = { limit: number; offset: number } | null;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * `limit` and `offset` apply only when given (default limit 50, max 1000).
 * Returns null when neither is given, or a list of problems for values that are not valid.
 */
export function parsePageRequest(query: Record<string, string | string[]>): PageRequest | { errors: string[] } {
  const rawLimit = single(query.limit);
  const rawOffset = single(query.offset);
  if (rawLimit === undefined && rawOffset === undefined) return null;
  const errors: string[] = [];
  const limit = rawLimit === undefined ? DEFAULT_LIMIT : Number(rawLimit);
  const offset = rawOffset === undefined ? 0 : Number(rawOffset);
  if (rawLimit !== undefined && (!/^\d+$/.test(rawLimit) || limit < 1 || limit > MAX_LIMIT)) {
    errors.push(`limit must be an integer from 1 to ${MAX_LIMIT}.`);
  }
  if (rawOffset !== undefined && (!/^\d+$/.test(rawOffset) || !Number.isSafeInteger(offset))) {
    errors.push('offset must be a non-negative integer.');
  }
  return errors.length ? { errors } : { limit, offset };
}

export function paginationOf(total: number, page: PageRequest, returned: number): Pagination {
  if (!page) return { total, limit: total, offset: 0, hasMore: false };
  return { total, limit: page.limit, offset: page.offset, hasMore: page.offset + returned < total };
}
