import { z } from 'zod';
import { BOUNCER_SETUPS, KEY_STATUSES } from '../../../src-shared/access.ts';
import { CAP_PRESET_IDS, ENTRY_CAP_MAX, ENTRY_CAP_MIN } from '../../../src-shared/key-caps.ts';
import { keyWeakness } from '../../auth/key-strength.ts';
import { field } from '../../resource-kit/fields.ts';
import type { FieldDef, ResourceDeclaration } from '../../resource-kit/types.ts';
import {
  ALL_CRUD_OPERATIONS,
  NO_BODY,
  NO_QUERY,
  READ_ON_COLLECTION,
  recordOutput,
} from '../../resource-kit/contract.ts';

/** A key value as a create or a rotate answers it, the one time it is shown. */
const ISSUED_KEY = z.string().regex(/^[0-9a-f]{64}$/);

/** Forms send allowed_paths as JSON text; JSON clients send an object. */
const parseJsonText = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

const allowedPathsSchema = z.record(
  z
    .string()
    .regex(/^\/\S*$/, 'paths start with "/" and contain no spaces')
    .max(512),
  z.enum(['read', 'write'], { error: 'must be "read" or "write"' }),
  { error: 'must be an object mapping a path to "read" or "write"' },
);

/** '' and null both mean "never expires"; a date-time is kept as given until validated. */
const toExpiry = (value: unknown): unknown => {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  return typeof value === 'string' ? value.trim() : value;
};

const expirySchema = z.union([
  z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, e.g. 2026-12-31T23:59:00Z, or null' }),
  z.null(),
]);

/** No cap: null, or an empty form field. A number in a string (forms) is read as the number. */
const toCap = (value: unknown): unknown => {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  return typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
};

const CAP_RANGE = `a whole number from ${ENTRY_CAP_MIN} to ${ENTRY_CAP_MAX.toLocaleString('en-US')}, or null for no cap`;

/** The fields of an API key, as stored and answered. */
const apiKeyFields = {
  id: field.recordId('Record id; forwarded to workers as token_id.'),
  description: field.text(z.string().min(1).max(255), {
    required: true,
    description: 'What the key is for (required on every verb).',
  }),
  key: field.text(
    z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'must be 64 hexadecimal characters')
      .superRefine((key, check) => {
        const weakness = /^[0-9a-f]{64}$/.test(key) ? keyWeakness(key) : undefined;
        if (weakness)
          check.addIssue({
            code: 'custom',
            message: `is too weak: ${weakness}. Use api-keys:generateKey, or 32 random bytes in hex.`,
          });
      }),
    {
      writeOnly: true,
      sanitize: (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
      description:
        'The key itself: 64 hex characters with real entropy (patterned keys get 422); generated ' +
        'when absent on create. Only a generated key is shown, once, in the create answer.',
    },
  ),
  allowed_paths: field.json(allowedPathsSchema, {
    default: () => ({}),
    sanitize: parseJsonText,
    description:
      'Map of path prefix to "read" or "write", e.g. {"/api/v3/firewall-bouncer": "read"}. Empty denies everything.',
  }),
  full_permissions: field.boolean({
    default: false,
    description: 'Allows every path and level; allowed_paths is then ignored.',
  }),
  networkfilterid: field.text(
    z.string().regex(/^(none|localhost|\d+)$/, 'must be "none", "localhost" or a network filter id'),
    {
      default: 'none',
      description:
        'Source binding: "none", "localhost" (127.0.0.1 and ::1), or a network filter id whose permit must contain the caller.',
    },
  ),
  expand_ranges: field.boolean({
    default: false,
    description:
      'Bouncer export option: publish each Range decision of up to 65,536 addresses (IPv4 /16, ' +
      'IPv6 /112) as one Ip decision per address, for clients that cannot hold ranges ' +
      '(crowdsec-firewall-bouncer in nftables mode). Wider ranges stay one Range decision.',
  }),
  entry_cap: field.integer(
    z
      .number({ error: `must be ${CAP_RANGE}` })
      .int({ error: `must be ${CAP_RANGE}` })
      .min(ENTRY_CAP_MIN, { error: `must be ${CAP_RANGE}` })
      .max(ENTRY_CAP_MAX, { error: `must be ${CAP_RANGE}` })
      .nullable(),
    {
      default: null,
      sanitize: toCap,
      description:
        'Bouncer export and router feed: at most this many entries for this key (null: every one). ' +
        "What it keeps, in order: this PBX's intrusion bans, manual bans, filter entries, upstream " +
        'decisions; the longest-lasting first within each. Set by cap_preset unless it is "custom".',
    },
  ),
  cap_preset: field.text(z.enum(CAP_PRESET_IDS, { error: `must be one of ${CAP_PRESET_IDS.join(', ')}` }), {
    default: 'none',
    description:
      'The device the cap is for: none, mikrotik-hex (35,000), ipset-default (65,536), ' +
      'nftables-default (65,535), unifi-small (8,000), unifi-large (50,000), opnsense (500,000), ' +
      'or custom (entry_cap as given). A device preset sets entry_cap to its number.',
  }),
  aggregate: field.boolean({
    default: false,
    description:
      'Bouncer export and router feed: adjacent and overlapping entries become the fewest CIDRs ' +
      '(never covering a whitelisted, trusted or loopback address). Off by default.',
  }),
  feed_interval_minutes: field.integer(z.number().int().min(1).max(1440), {
    default: 5,
    description:
      "Router feed option: how often the router fetches this key's feed, in minutes (1-1440, the " +
      "console's script offers 5). A feed not fetched for three of these is a failing health check.",
  }),
  bouncer_setup: field.text(z.enum(BOUNCER_SETUPS).nullable(), {
    default: null,
    description:
      'The bouncer the key was made for: crowdsec-firewall-bouncer in iptables or nftables mode, ' +
      'or crowdsec-custom-bouncer, or `router-feed` (a router or firewall fetching the blocklist ' +
      'feed); null when none of these. Remembered so the console offers ' +
      'the matching configuration on Rotate and Details; it changes nothing the server serves.',
  }),
  enabled: field.boolean({
    default: true,
    description:
      'false disables the key: every request with it gets 401 "this API key is disabled", the ' +
      'bouncer export included. true enables it again.',
  }),
  expires_at: field.text(expirySchema, {
    default: null,
    sanitize: toExpiry,
    description:
      'ISO 8601 date-time after which the key gets 401 "expired"; null (or empty) never expires. A new value must be in the future.',
  }),
  key_display: field.text(z.string(), { readOnly: true, description: 'First and last 4 characters of the key.' }),
  status: field.text(z.enum(KEY_STATUSES), {
    readOnly: true,
    description: 'active, disabled (enabled is false) or expired (expires_at has passed).',
  }),
  disabled_at: field.text(z.string().nullable(), {
    readOnly: true,
    description: 'When the key was disabled; null while enabled.',
  }),
  rotated_at: field.text(z.string().nullable(), {
    readOnly: true,
    description: 'When the key value was last replaced by api-keys/{id}:rotate.',
  }),
  sources: field.json(z.array(z.object({ ip: z.string(), last_used_at: z.string() })), {
    readOnly: true,
    description:
      "The key's most recent source addresses (up to 20), each with its last use; updated at most once a minute per address.",
  }),
  has_key: field.boolean({ readOnly: true }),
  created_at: field.text(z.string(), { readOnly: true }),
  last_used_at: field.text(z.string().nullable(), { readOnly: true, description: 'Updated at most once a minute.' }),
  last_used_ip: field.text(z.string().nullable(), { readOnly: true }),
} satisfies Record<string, FieldDef>;

/** `api-keys` (ARCHITECTURE): an older action, so `description` is required on every verb, PATCH included. */
export const apiKeysDeclaration = {
  name: 'api-keys',
  description:
    'API keys for scripts and bouncers. The key is shown once (create or generateKey) and stored only as a SHA-256 hash.',
  processor: 'ApiKeysManagementProcessor',
  kind: 'collection',
  idField: 'id',
  requireOnEveryVerb: true,
  security: {
    permission: 'ApiKeys',
    channels: ['localhost', 'bearer_token'],
    levels: { create: 'ADMIN', update: 'ADMIN', patch: 'ADMIN', delete: 'ADMIN' },
  },
  fields: apiKeyFields,
  operations: ALL_CRUD_OPERATIONS,
  // The created record plus the key the server generated, shown this once (a key the client chose is not echoed).
  createOutput: z.lazy(() =>
    recordOutput(apiKeyFields).extend({
      key: ISSUED_KEY.optional().describe(
        'The generated key, in this answer only; absent when the request gave `key`.',
      ),
    }),
  ),
  customMethods: {
    generateKey: {
      verbs: ['GET', 'POST'],
      scope: 'collection',
      level: 'ADMIN',
      description: 'A fresh 64-hex key, not stored: `{key}`.',
      input: NO_QUERY,
      output: z.object({ key: z.string().regex(/^[0-9a-f]{64}$/) }),
    },
    getDefault: {
      ...READ_ON_COLLECTION,
      description: 'Default values for a new key record.',
      input: NO_QUERY,
      output: z.object({
        description: z.literal(''),
        allowed_paths: z.object({}),
        full_permissions: z.literal(false),
        networkfilterid: z.literal('none'),
        expand_ranges: z.literal(false),
        entry_cap: z.null(),
        cap_preset: z.literal('none'),
        aggregate: z.literal(false),
        feed_interval_minutes: z.literal(5),
        enabled: z.literal(true),
        expires_at: z.null(),
        has_key: z.literal(false),
      }),
    },
    rotate: {
      verbs: ['POST'],
      scope: 'resource',
      level: 'ADMIN',
      description:
        'Replaces the key value: the record (id, grants, binding, bouncer cursor, state) stays, the ' +
        'old value stops working at once, and the new one is shown once as `key` in this answer. ' +
        'Needs the same grants as editing the key.',
      input: NO_BODY,
      // The stored record plus the new key, shown this once.
      output: z.lazy(() => recordOutput(apiKeyFields).extend({ key: ISSUED_KEY })),
    },
    resync: {
      verbs: ['POST'],
      scope: 'resource',
      level: 'ADMIN',
      description:
        "Sends the key's bouncer or router everything it should hold again: its next stream poll " +
        'carries the whole set in `new` (as every poll does), and its next MikroTik feed fetch is a ' +
        'full list, whatever cursor it presents. For a bouncer that lost its set (a reboot, a flush).',
      input: NO_BODY,
      output: z.object({ id: z.number().int(), resync_requested_at: z.string() }),
    },
  },
} satisfies ResourceDeclaration;
