import { ApiError } from './api-client.ts';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The field a message is about: the one it starts with (`deny: …`), else the first field it names as a word. */
function fieldOf<F extends string>(message: string, fields: readonly F[]): F | undefined {
  // The server prefixes a validation message with its field; words later in the text ("overlaps the
  // trusted network …") describe other things and must not move the message under another input.
  const prefix = /^\s*([\w.]+)\s*:/.exec(message)?.[1];
  if (prefix) {
    const named = fields.find(
      (f) => f.toLowerCase() === prefix.toLowerCase() || prefix.toLowerCase().startsWith(`${f.toLowerCase()}.`),
    );
    if (named) return named;
  }
  // Longer names first, so `newer_block_ip` is not taken for a shorter field it contains.
  const ordered = [...fields].sort((a, b) => b.length - a.length);
  return ordered.find((f) => new RegExp(`(^|[^\\w])${escape(f)}([^\\w]|$)`, 'i').test(message));
}

/**
 * Splits a 422's messages into per-field errors (a message about a field goes under it) and the rest,
 * so forms show each error beside its input.
 */
export function fieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
): { byField: Partial<Record<F, string>>; other: string[] } {
  const byField: Partial<Record<F, string>> = {};
  const other: string[] = [];
  if (!(error instanceof ApiError)) return { byField, other: error ? [String((error as Error).message ?? error)] : [] };
  for (const message of error.messages) {
    const field = fieldOf(message, fields);
    // Under its own input the field name is redundant: "permit: x is not valid" reads "X is not valid",
    // "currentRules.SIP: …" reads "SIP: …".
    if (field && !byField[field])
      byField[field] = message
        // The server counts a list's entries from 0 ("bantimeMultipliers.1: …"); a technician counts from 1.
        .replace(
          new RegExp(`^\\s*${escape(field)}\\.(\\d+)(?=[.:])`, 'i'),
          (_m, index: string) => `Value ${Number(index) + 1}`,
        )
        .replace(new RegExp(`^\\s*${escape(field)}(:\\s*|\\.)`, 'i'), '')
        .replace(/^./, (c) => c.toUpperCase());
    else other.push(message);
  }
  return { byField, other };
}
