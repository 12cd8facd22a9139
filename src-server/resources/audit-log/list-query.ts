import { z } from 'zod';
import { AUDIT_CHANNELS, AUDIT_KINDS } from '../../audit/store.ts';

const MAX_FILTER_CHARS = 200;

/** Query strings carry text: it is trimmed, and empty counts as absent. */
const trimmedOrAbsent = (value: unknown) => (typeof value === 'string' ? value.trim() || undefined : value);

const filterText = (name: string) =>
  z.preprocess(
    trimmedOrAbsent,
    z
      .string()
      .max(MAX_FILTER_CHARS, { error: `${name} must be at most ${MAX_FILTER_CHARS} characters.` })
      .optional(),
  );

/** An ISO 8601 time or epoch milliseconds. */
function parseTime(raw: string): number | undefined {
  if (/^\d{1,15}$/.test(raw)) return Number(raw);
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw)) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A time filter, answered as epoch milliseconds. */
const filterTime = (name: string) =>
  filterText(name).transform((raw, check) => {
    if (raw === undefined) return undefined;
    const at = parseTime(raw);
    if (at === undefined) {
      check.addIssue({ code: 'custom', message: `${name} must be an ISO 8601 time or epoch milliseconds.` });
      return z.NEVER;
    }
    return at;
  });

/** The audit log list's filters (besides `limit` and `offset`), as `queryAuditLog` takes them. */
export const auditListQuery = z
  .object({
    search: filterText('search').describe(
      'Substring of the actor, key description, resource, record, operation, reason, address, path or diff.',
    ),
    actor: filterText('actor').describe('A user name, `localhost`, or an API key id (`12` or `key:12`).'),
    resource: filterText('resource'),
    channel: z.preprocess(
      trimmedOrAbsent,
      z.enum(AUDIT_CHANNELS, { error: `channel must be one of ${AUDIT_CHANNELS.join(', ')}.` }).optional(),
    ),
    kind: z.preprocess(
      trimmedOrAbsent,
      z.enum(AUDIT_KINDS, { error: `kind must be one of ${AUDIT_KINDS.join(', ')}.` }).optional(),
    ),
    since: filterTime('since').describe(
      'ISO 8601 time or epoch milliseconds; entries at or after it (repeated rejections: the last at or after it).',
    ),
    until: filterTime('until').describe(
      'ISO 8601 time or epoch milliseconds; entries at or before it (repeated rejections: the first at or before it).',
    ),
  })
  .superRefine((query, check) => {
    if (query.since !== undefined && query.until !== undefined && query.since > query.until)
      check.addIssue({ code: 'custom', path: ['since'], message: 'since must not be after until.' });
  });
