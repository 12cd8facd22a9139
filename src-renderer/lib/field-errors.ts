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
    // Under its own input the field name is redundant: "permit: x is not valid" reads "x is not valid".
    if (field && !byField[field]) byField[field] = message.replace(new RegExp(`^${field}:\\s*`, 'i'), '').replace(/^./, (c) => c.toUpperCase());
    else other.push(message);
  }
  return { byField, other };
}
