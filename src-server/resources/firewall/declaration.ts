import { z } from 'zod';
import { DEFAULT_DENY, FILTER_CATEGORIES, RULE_CATEGORIES } from '../../firewall/filters/index.ts';
import { field, flagInput, flagValue } from '../../resource-kit/fields.ts';
import type { MethodAction, ResourceDeclaration } from '../../resource-kit/types.ts';
import { BAN_LIST_FORMATS, MAX_REASON_CHARS, parseImportDuration } from '../../firewall/transfer/index.ts';
import { BAN_KINDS } from '../../../src-shared/categories.ts';
import { ALL_CRUD_OPERATIONS, NO_QUERY, PAGE_QUERY, READ_ON_COLLECTION } from '../../resource-kit/contract.ts';
import * as out from './contract.ts';
import { banDurationInput, cidrInput, unbanInput, unbanListInput } from './address-inputs.ts';

/** The categories getBannedIps lists: this PBX's own, and the upstream LAPI's. */
const BANNED_CATEGORIES = [...BAN_KINDS, 'upstream'] as const;

const rulesSchema = z
  .record(z.string(), z.boolean({ error: 'must be true (allow) or false (block)' }))
  .superRefine((rules, check) => {
    for (const category of Object.keys(rules)) {
      if (!(RULE_CATEGORIES as readonly string[]).includes(category)) {
        check.addIssue({
          code: 'custom',
          message: `"${category.slice(0, 40)}" is not a service category; use ${RULE_CATEGORIES.join(', ')}.`,
        });
      }
    }
  });

/** Accepts a flag form (fields.ts) or "allow"/"block" per category; anything else is left for the schema to refuse. */
const sanitizeRules = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [category, raw] of Object.entries(value)) {
    const upper = category.toUpperCase();
    const allowed = raw === 'allow' ? true : raw === 'block' ? false : flagValue(raw);
    out[upper] = allowed ?? raw;
  }
  return out;
};

const BAN_IP_REQUIRED = 'an address or CIDR to ban is required.';
const WHITELIST_IP_REQUIRED = 'the banned address or range to whitelist is required.';
const DURATION_TEXT = 'give seconds, a number with a unit (30m, 12h, 7d, 2w) or "permanent".';
const SERVICES_TEXT = `a non-empty list of ${FILTER_CATEGORIES.join(', ')}; leave it out to ban from every service.`;
const BAN_LIST_REQUIRED = 'the ban list is required (send it as the `content` field, or as a text/plain body).';
/** The duration of entries that carry none (values, opnsense lines), as `cscli decisions import` defaults it. */
export const DEFAULT_IMPORT_DURATION = '4h';
const IPS_TEXT = 'a list of 1 to 1000 addresses (or banned ranges).';
const BAN_STATES = ['active', 'expired', 'lifted'] as const;
const reasonText = z
  .string({ error: `text of at most ${MAX_REASON_CHARS} characters.` })
  .max(MAX_REASON_CHARS, { error: `text of at most ${MAX_REASON_CHARS} characters.` });
const formatEnum = z.enum(BAN_LIST_FORMATS, {
  error: (issue) =>
    `format "${String(issue.input).slice(0, 40)}" is not a ban list format: use one of ${BAN_LIST_FORMATS.join(', ')}.`,
});

/** A list's search text: trimmed and cut to 100 characters; blank is no search. */
const searchText = z
  .string()
  .transform((text) => text.trim().slice(0, 100) || undefined)
  .optional();

/** Empty means "use the default" for optional text fields. */
const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : typeof value === 'string' ? value.trim() : value;

/**
 * Network filters (ARCHITECTURE "Network filter shape"). Written as `network` + `subnet` or
 * `permit`, `deny`, `currentRules` ({SIP, WEB, AMI, IAX}: true allow / false block); read back
 * as `permit` (network/subnet) and `rules` ({CATEGORY: "allow"|"block"}).
 */
export const firewallDeclaration = {
  name: 'firewall',
  description:
    'Network filters: trusted networks, per-service allow/block rules and deny entries, plus ' +
    'intrusion bans. Ranges are stored as their network (203.0.113.77/24 is 203.0.113.0/24). ' +
    'DELETE of a filter API keys are bound to answers 409 naming them, unless ' +
    '`?moveKeysTo=<another filter id>` or `?moveKeysTo=localhost` moves them; a key bound to a ' +
    'filter cannot widen it, make it trusted or delete it (403).',
  processor: 'FirewallManagementProcessor',
  kind: 'collection',
  idField: 'id',
  security: { permission: 'Firewall', channels: ['localhost', 'bearer_token'] },
  fields: {
    id: field.recordId('Record id.'),
    network: field.text(z.string(), {
      sanitize: emptyToUndefined,
      writeOnly: true,
      description: 'Network address (IPv4 or IPv6); with `subnet`, sets `permit`.',
    }),
    subnet: field.integer(z.number().int().min(0).max(128), {
      writeOnly: true,
      description: 'Prefix length 0-128 for `network`.',
    }),
    permit: field.text(z.string(), {
      sanitize: emptyToUndefined,
      description: 'The network this filter is about, as a CIDR.',
    }),
    deny: field.text(z.string(), {
      sanitize: emptyToUndefined,
      default: DEFAULT_DENY,
      description:
        'Comma-separated addresses or CIDRs to block; every entry except 0.0.0.0/0 and ::/0 is published to bouncers.',
    }),
    description: field.text(z.string().max(255), { default: '', description: 'Free text.' }),
    newer_block_ip: field.boolean({
      default: false,
      description: 'Trusted: never banned, and part of the bouncer whitelist.',
    }),
    local_network: field.boolean({ default: false, description: 'The network is local to the PBX (NAT settings).' }),
    currentRules: field.json(rulesSchema, {
      sanitize: sanitizeRules,
      // Not marked writeOnly: that would make PUT keep the stored rules like a secret; it is never read back anyway.
      default: () => ({ SIP: true, WEB: true, AMI: true, IAX: true }),
      description:
        'Per-category access: true (allow) or false (block). SIP, WEB, AMI and IAX drive this ' +
        "server; the reference PBX's other categories (SSH, AJAM, ICMP, NTP, TFTP, CTICLIENT) are " +
        'stored and read back in `rules` only.',
    }),
    rules: field.json(z.record(z.string(), z.enum(['allow', 'block'])), {
      readOnly: true,
      description: 'Per-category access as "allow"/"block".',
    }),
  },
  operations: ALL_CRUD_OPERATIONS,
  deleteQuery: z.object({
    moveKeysTo: z
      .string()
      .optional()
      .describe('Where the API keys bound to this filter go: another filter id, or `localhost`.'),
  }),
  customMethods: {
    getDefault: {
      ...READ_ON_COLLECTION,
      description: 'A new filter with every default applied.',
      input: NO_QUERY,
      output: out.defaultFilter,
    },
    getBannedIps: {
      ...READ_ON_COLLECTION,
      description:
        'Active bans, intrusion and manual, newest first: [{ip, category, reason?, bannedAt, expiresAt, ' +
        'secondsLeft (null when permanent), bannedBy, services, permanent, delivery: {served, of, ' +
        'keys: [{keyId, description}]}}]. `delivery`: how many of the active bouncer keys (polled ' +
        'within the hour, enabled, not expired) were sent the ban. Then the upstream CrowdSec LAPI ' +
        'decisions this server enforces, longest-lasting first (category `upstream`, `bannedAt` null, ' +
        '`bannedBy` the origin, `upstream: {origin, scenario, liftable: false}`): lift them on the ' +
        'LAPI, or whitelist the address here. `search`: an address or its start (`203.0.113`, ' +
        '`2001:db8:`) matches the start of the address; other text matches part of the address, the ' +
        'reason or who banned (for upstream, the origin or scenario). `category` filters; ' +
        '`limit`/`offset` page the two ' +
        'lists one after the other. Without `limit` and `offset` every own ban and at most 1,000 ' +
        'upstream bans are listed. `pagination.total` counts every match, upstream included.',
      input: z.object({
        search: searchText.describe(
          'An address or its start, or part of the address, the reason or who banned (at most 100 characters).',
        ),
        category: z
          .enum(BANNED_CATEGORIES, { error: `one of ${BANNED_CATEGORIES.join(', ')}.` })
          .optional()
          .describe('Only this category.'),
        ...PAGE_QUERY,
      }),
      output: out.bannedIps,
    },
    getBanCounts: {
      ...READ_ON_COLLECTION,
      description:
        'How many bans in force match `search` (as getBannedIps reads it), in each category and ' +
        "in all, and when the newest of this PBX's own started: {total, categories: {sip, http, ami, " +
        'iax, manual, upstream}, newestBannedAt}.',
      input: z.object({
        search: searchText.describe('Part of the address, the reason or who banned.'),
      }),
      output: out.banCounts,
    },
    getPhoneProtection: {
      ...READ_ON_COLLECTION,
      description:
        'Registered phones are never cut off: {enabled, lingerMinutes, addresses: [{address, phones: ' +
        '[{endpoint, registeredSince, endedAt}]}], flags: [{account, address, registeredAccounts, ' +
        'state, failures, at, text}]}. The addresses that host a registered PJSIP endpoint now (or ' +
        'did within lingerMinutes), and the accounts flagged for failing from one of them (their ' +
        'failures ban nothing).',
      input: NO_QUERY,
      output: out.phoneProtection,
    },
    lookup: {
      ...READ_ON_COLLECTION,
      description:
        '"Why is this address blocked?" `?ip=<address>`: {address, blocked, loopback, decisions: ' +
        '[{value, scenario, origin, scope, source: ban|filter|upstream, ban?, filter?, upstream?, ' +
        'secondsLeft, delivery}], protections: [{kind: whitelist|trusted-filter|registered-phones, ' +
        'value, filter?, phones?, note?, comment?, until?}], ' +
        'history: [{value, category, reason, bannedBy, bannedAt, endedAt, ended: lifted|expired, liftedBy}]}. ' +
        'Every active decision that covers the address (its bans, range bans and filter entries that ' +
        'hold it, and the upstream CrowdSec LAPI decisions this server enforces on it: `upstream: ' +
        '{origin, scenario, liftable: false}`, lifted on the LAPI only) and every entry that protects ' +
        'it, and the recent bans that held it and have ended (who banned it when, who lifted it when). ' +
        'A malformed address gets 400; an address nothing covers gets empty lists.',
      input: z.object({ ip: z.string().optional().describe('The address to look up.') }),
      output: out.addressLookup,
    },
    banIp: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'WRITE',
      description:
        'Bans an address or CIDR: published to bouncers as pbx/manual with its real remaining time. ' +
        '`duration`: seconds, or a number with s/m/h/d/w (60 s to 10 years), or "permanent" (the ' +
        'default). `services`: which of SIP, WEB, AMI, IAX this server refuses it on (all when ' +
        'absent). Loopback, 0.0.0.0/0 and whitelisted or trusted networks get 422. A value that ' +
        'covers an address with registered phones gets 409 naming them, and nothing is banned, ' +
        'unless `confirmCutOff` is true.',
      input: z.object({
        ip: cidrInput(BAN_IP_REQUIRED),
        confirmCutOff: flagInput().optional(),
        duration: banDurationInput(DURATION_TEXT),
        reason: reasonText.optional(),
        services: z
          .array(z.enum(FILTER_CATEGORIES, { error: SERVICES_TEXT }), { error: SERVICES_TEXT })
          .min(1, { error: SERVICES_TEXT })
          .nullable()
          .optional(),
      }),
      output: out.bannedIp,
    },
    unbanIp: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'WRITE',
      description:
        'Lifts every ban (all categories) of `ip`, or a manual ban of a range given as its CIDR. An ' +
        'upstream CrowdSec LAPI decision of the same value is not lifted (it belongs to the LAPI): ' +
        'the answer then carries a warning saying where to lift it.',
      input: z.object({ ip: unbanInput('ip is required.') }),
      output: out.unbannedIp,
    },
    unbanIps: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'WRITE',
      description: 'Bulk unban: `{ips: [...]}` (1-1000), all validated first, lifted in one transaction.',
      input: z.object({
        ips: unbanListInput(IPS_TEXT),
      }),
      output: out.unbannedIps,
    },
    unbanAndWhitelist: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'WRITE',
      description:
        'Lifts every ban inside `ip` (address or CIDR) and whitelists it with `comment`, for good ' +
        'or `until` an ISO time (a fail2ban whitelistEntries entry), in one transaction and one ' +
        'audit entry: {ip, lifted: [{ip, category}], whitelisted}. An end in the past, or an ' +
        'overlap with a filter deny entry, gets 422.',
      input: z.object({
        ip: cidrInput(WHITELIST_IP_REQUIRED),
        comment: z.string().max(200, { error: 'at most 200 characters' }).nullable().optional(),
        until: z
          .string({ error: 'an ISO date and time such as 2026-12-01T18:00:00Z, or null for good' })
          .nullable()
          .optional(),
      }),
      output: out.unbannedAndWhitelisted,
    },
    getBanLog: {
      ...READ_ON_COLLECTION,
      description:
        'Ban history, newest first: every ban, its end (expiry or unban) and who lifted it. ' +
        '`search` (part of the address or reason), `category` (sip, http, ami, iax, manual), ' +
        '`state` (active, expired, lifted), `limit`, `offset`.',
      input: z.object({
        search: searchText,
        category: z.enum(BAN_KINDS, { error: `one of ${BAN_KINDS.join(', ')}.` }).optional(),
        state: z.enum(BAN_STATES, { error: `one of ${BAN_STATES.join(', ')}.` }).optional(),
        ...PAGE_QUERY,
      }),
      output: out.banLog,
    },
    importBans: {
      verbs: ['POST'],
      scope: 'collection',
      level: 'WRITE',
      description:
        'Bulk ban import, all or nothing: `format` json, csv (with a header), values (one per line) ' +
        'or opnsense (address, CIDR or a-b range, then a description); `content` the list (or send ' +
        'it as a text/plain body with the other fields in the query string, up to 20 MB); ' +
        '`duration` for entries without one (default 4h; "permanent" allowed); `reason`; `dryRun`. ' +
        'Any refused line (malformed, whitelisted, trusted or loopback) gets 422 listing line ' +
        'numbers and reasons, and nothing is imported. Imported bans are manual bans (pbx/manual); ' +
        'duplicates are merged. Values covering addresses with registered phones get 409 naming ' +
        'them, and nothing is imported, unless `confirmCutOff` is true (a dry run warns).',
      // A text/plain body carries only `content`: the other fields ride in the query string.
      queryJoinsBody: true,
      auditAsSize: ['content'],
      input: z.object({
        format: formatEnum.default('values'),
        content: z
          .string({ error: BAN_LIST_REQUIRED })
          .refine((text) => text.trim() !== '', { error: BAN_LIST_REQUIRED }),
        duration: z
          .union([z.number(), z.string()])
          .optional()
          .transform((raw, check) => {
            const duration = parseImportDuration(raw ?? DEFAULT_IMPORT_DURATION);
            if (duration.ok) return duration.seconds;
            check.addIssue({ code: 'custom', message: `duration: ${duration.reason}.` });
            return z.NEVER;
          }),
        reason: reasonText.default(''),
        dryRun: flagInput().default(false),
        confirmCutOff: flagInput().default(false),
      }),
      output: out.importedBans,
    },
    exportBans: {
      ...READ_ON_COLLECTION,
      description:
        'Bans in force as a list importBans reads back: `format` json (default), csv, values or ' +
        'opnsense; `source` manual (default) or all (with intrusion bans). {format, source, count, ' +
        'content}.',
      input: z.object({
        format: formatEnum.default('json'),
        source: z
          .enum(['manual', 'all'], { error: "manual (the operator's bans, the default) or all (with intrusion bans)." })
          .default('manual'),
      }),
      output: out.exportedBans,
    },
    getBouncerStatus: {
      ...READ_ON_COLLECTION,
      description:
        '{bouncers, rejections}: per API key its last poll and counts, and per source address ' +
        '(key@ip) its User-Agent, reported type, version, OS and dropped counts; sources refused on ' +
        'the export this week, with any ban still locking them out. Without SENSITIVE the key ' +
        'descriptions read `API key #<id>`, `lastPollIp` is null and `hosts` is empty.',
      input: NO_QUERY,
      output: out.bouncerStatus,
    },
    getBanHistory: {
      ...READ_ON_COLLECTION,
      description:
        'Bans started per category in each minute (`?minutes=` 1-1440, default 60): {points: [{t, sip, http, ami, iax, manual}]}.',
      input: z.object({
        minutes: z
          .string()
          .refine((v) => Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 1440, {
            error: 'minutes must be an integer from 1 to 1440.',
          })
          .transform(Number)
          .optional()
          .default(60),
      }),
      output: out.banHistory,
    },
    getWhitelist: {
      ...READ_ON_COLLECTION,
      description: 'Exactly what /firewall-bouncer/v1/whitelist returns.',
      input: NO_QUERY,
      output: out.whitelist,
    },
  },
} satisfies ResourceDeclaration;

/** A firewall custom method's action, typed by its declared input. */
export type FirewallAction<K extends keyof typeof firewallDeclaration.customMethods> = MethodAction<
  typeof firewallDeclaration,
  K
>;
