import { z } from 'zod';
import { AUDIT_CHANNELS, AUDIT_KINDS, REJECTION_WINDOW_MS } from '../../audit/store.ts';
import { auditListQuery } from './list-query.ts';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';

const readOnly = { readOnly: true } as const;
/** The coalescing window in words (audit/recorder.ts). */
const WINDOW = `${REJECTION_WINDOW_MS / 60_000} minutes`;
const change = z.object({ field: z.string(), before: z.unknown().optional(), after: z.unknown().optional() });

/** The audit log: read-only. Entries are written by the workers (writes) and the web thread (rejections). */
export const auditLogDeclaration = {
  name: 'audit-log',
  description:
    `Audit log, newest first: every write through any channel (who, channel, source address, ` +
    `resource, record, operation, status, the changed fields with secrets masked), rejected API ` +
    `key uses and failed logins. Identical rejections within ${WINDOW} of the first share one ` +
    `entry with their \`count\`, first (\`at\`) and last (\`lastAt\`) time. Entries older than ` +
    `general-settings \`auditRetentionDays\` are pruned.`,
  processor: 'AuditLogProcessor',
  kind: 'collection',
  idField: 'id',
  security: {
    permission: 'AuditLog',
    channels: ['localhost', 'bearer_token'],
    levels: { getList: 'ADMIN', getRecord: 'ADMIN' },
  },
  fields: {
    id: field.recordId(),
    at: field.text(z.string(), {
      ...readOnly,
      description: 'When (ISO 8601, UTC); for repeated rejections, the first of them.',
    }),
    kind: field.text(z.enum(AUDIT_KINDS), readOnly),
    channel: field.text(z.enum(AUDIT_CHANNELS).nullable(), {
      ...readOnly,
      description: 'localhost, jwt, session or api_key; null for a failed login.',
    }),
    actor: field.text(z.string().nullable(), {
      ...readOnly,
      description: 'User name, `localhost`, or the login tried; null for an API key (see keyId).',
    }),
    keyId: field.integer(z.number().int().nullable(), readOnly),
    keyDescription: field.text(z.string().nullable(), {
      ...readOnly,
      description: "The key's description when the entry was written.",
    }),
    address: field.text(z.string(), { ...readOnly, description: 'Source (socket) address.' }),
    resource: field.text(z.string().nullable(), readOnly),
    recordId: field.text(z.string().nullable(), readOnly),
    operation: field.text(z.string().nullable(), {
      ...readOnly,
      description: 'create, update, patch, delete or the custom method.',
    }),
    verb: field.text(z.string().nullable(), readOnly),
    path: field.text(z.string().nullable(), { ...readOnly, description: 'Request path of a rejection.' }),
    status: field.integer(z.number().int(), { ...readOnly, description: 'HTTP status of the outcome.' }),
    reason: field.text(z.string().nullable(), { ...readOnly, description: 'Why a key or login was refused.' }),
    diff: field.json(z.array(change), {
      ...readOnly,
      description:
        'Changed fields: before → after (updates), after (creates), before (deletes). Secrets show "•••• (changed)".',
    }),
    count: field.integer(z.number().int().min(1), {
      ...readOnly,
      description:
        `How many identical rejections the entry stands for: the same kind, key or login tried, ` +
        `source address, request, status and reason within ${WINDOW} of the first are one entry. 1 ` +
        `for a write.`,
    }),
    lastAt: field.text(z.string(), {
      ...readOnly,
      description: 'The last of those rejections (ISO 8601, UTC); equals `at` when count is 1.',
    }),
  },
  operations: ['getList', 'getRecord'],
  listQuery: auditListQuery,
} satisfies ResourceDeclaration;
