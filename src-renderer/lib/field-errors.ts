import { ApiError } from './api-client.ts';

/**
 * Splits a 422's messages into per-field errors (a message naming a field goes under it) and the rest,
 * so forms show each error beside its input.
 */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): { byField: Partial<Record<F, string>>; other: string[] } {
  const byField: Partial<Record<F, string>> = {};
  const other: string[] = [];
  if (!(error instanceof ApiError)) return { byField, other: error ? [String((error as Error).message ?? error)] : [] };
  // Longer names first, so `newer_block_ip` is not taken for a shorter field it contains.
  const ordered = [...fields].sort((a, b) => b.length - a.length);
  for (const message of error.messages) {
    const field = ordered.find((f) => new RegExp(`(^|[^\\w])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`, 'i').test(message));
    if (field && !byField[field]) byField[field] = message;
    else other.push(message);
  }
  return { byField, other };
}
