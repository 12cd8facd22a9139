import { z } from 'zod';
import { BAN_LIST_FORMATS } from '../../firewall/transfer/index.ts';
import { isoTime } from '../../resource-kit/contract.ts';
import { banKind, bannedServices, banLogEntry } from '../../../src-shared/ban-log.ts';

/** The output schemas of the firewall's custom methods (the shape of `data`), used by its declaration. */

/** A whole number: counts, ids and versions. */
const int = z.number().int();

const rules = z.record(z.string(), z.enum(['allow', 'block']));

/** Which active bouncer keys were sent a decision. */
const delivery = z.object({
  served: int,
  of: int,
  keys: z.array(z.object({ keyId: int, description: z.string() })),
  missing: z
    .array(z.object({ keyId: int, description: z.string(), why: z.string() }))
    .describe('The keys not sent it, each with why: "fw1 has never polled", "fw2 is capped at 8,000 and left it out".'),
});

export const defaultFilter = z.object({
  id: z.literal('').describe('Empty: the filter is not saved yet.'),
  permit: z.literal(''),
  deny: z.string(),
  description: z.literal(''),
  newer_block_ip: z.literal(false),
  local_network: z.literal(false),
  rules,
});

export const bannedIps = z.array(
  z.object({
    ip: z.string(),
    category: z.union([banKind, z.literal('upstream')]),
    reason: z.string().optional(),
    bannedAt: isoTime.nullable().describe('null for an upstream decision (the LAPI does not say when it started).'),
    expiresAt: isoTime,
    secondsLeft: int.nullable(),
    bannedBy: z.string(),
    services: bannedServices,
    permanent: z.boolean(),
    banNumber: int,
    escalatedFrom: int
      .optional()
      .describe('Set on a Range ban that replaced this many single bans of its neighbourhood (escalation).'),
    delivery,
    upstream: z
      .object({ origin: z.string(), scenario: z.string(), liftable: z.literal(false) })
      .optional()
      .describe('Set on an upstream CrowdSec LAPI decision: lift it on the LAPI, or whitelist the address here.'),
  }),
);

export const banCounts = z.object({
  total: int.describe('Every ban in force that matches, upstream included.'),
  categories: z
    .object({ sip: int, http: int, ami: int, iax: int, manual: int, upstream: int })
    .describe('How many match in each category.'),
  newestBannedAt: isoTime.nullable().describe("When the newest of this PBX's own bans that match started."),
});

export const addressLookup = z.object({
  address: z.string(),
  blocked: z.boolean(),
  loopback: z.string().nullable(),
  decisions: z.array(
    z.object({
      value: z.string(),
      scenario: z.string(),
      origin: z.string(),
      scope: z.enum(['Ip', 'Range']),
      source: z.enum(['ban', 'filter', 'upstream']),
      ban: z.object({ category: banKind, reason: z.string(), bannedBy: z.string(), bannedAt: isoTime }).optional(),
      filter: z.object({ id: int, description: z.string(), permit: z.string() }).optional(),
      upstream: z
        .object({ origin: z.string(), scenario: z.string(), liftable: z.literal(false) })
        .optional()
        .describe('Set on an upstream CrowdSec LAPI decision: lift it on the LAPI, or whitelist the address here.'),
      secondsLeft: int.nullable(),
      delivery,
    }),
  ),
  protections: z.array(
    z.object({
      kind: z.enum(['whitelist', 'trusted-filter', 'registered-phones']),
      value: z.string(),
      filter: z.object({ id: int, description: z.string() }).optional(),
      comment: z.string().optional().describe("A whitelist entry's comment."),
      until: isoTime.nullable().optional().describe("A whitelist entry's end; null: for good."),
      phones: z.array(z.string()).optional().describe('registered-phones: the endpoints registered at the address.'),
      note: z.string().optional().describe('registered-phones: "protected: 2 registered phones, 101 and 103".'),
    }),
  ),
  history: z
    .array(
      z.object({
        value: z.string().describe('The address or range that was banned.'),
        category: banKind,
        reason: z.string(),
        bannedBy: z.string(),
        bannedAt: isoTime,
        endedAt: isoTime,
        ended: z.enum(['lifted', 'expired']),
        liftedBy: z.string().nullable().describe('Who lifted it; null when it ran out.'),
      }),
    )
    .describe('Recent ended bans that held the address, newest end first (at most 10).'),
});

export const phoneProtection = z.object({
  enabled: z.boolean(),
  lingerMinutes: int,
  addresses: z.array(
    z.object({
      address: z.string(),
      phones: z.array(z.object({ endpoint: z.string(), registeredSince: isoTime, endedAt: isoTime.nullable() })),
    }),
  ),
  flags: z.array(
    z.object({
      account: z.string(),
      address: z.string(),
      registeredAccounts: z.array(z.string()),
      state: z.enum(['flagged', 'cleared']),
      failures: int,
      at: isoTime,
      text: z.string().describe('"Account 102 fails from 198.51.100.10, where 101 and 103 are registered".'),
    }),
  ),
});

export const bannedIp = z.object({
  id: int,
  ip: z.string(),
  written: z.string().optional().describe('The range as sent, when it was stored as its network.'),
  category: z.literal('manual'),
  scenario: z.literal('pbx/manual'),
  permanent: z.boolean(),
  seconds: int.nullable(),
  reason: z.string(),
  services: bannedServices,
});

export const unbannedIp = z.object({ ip: z.string(), lifted: int.describe('Bans lifted.') });
export const unbannedIps = z.object({ ips: z.array(z.string()), lifted: int });

export const unbannedAndWhitelisted = z.object({
  ip: z.string(),
  lifted: z.array(z.object({ ip: z.string(), category: banKind })),
  whitelisted: z.object({ value: z.string(), comment: z.string(), until: isoTime.nullable() }),
});

export const banLog = z.array(banLogEntry);

export const importedBans = z.object({
  dryRun: z.boolean(),
  format: z.enum(BAN_LIST_FORMATS),
  entries: int,
  bans: int,
  added: int,
  extended: int,
  unchanged: int,
  merged: int,
  changes: z.array(
    z.object({
      value: z.string(),
      action: z.enum(['add', 'extend', 'keep']),
      duration: z.string(),
      reason: z.string(),
      lines: z.array(int),
    }),
  ),
});

export const exportedBans = z.object({
  format: z.enum(BAN_LIST_FORMATS),
  source: z.enum(['manual', 'all']),
  count: int,
  content: z.string(),
});

const rejection = z.object({
  ip: z.string(),
  keyId: int.nullable(),
  reason: z.string(),
  firstAt: isoTime,
  lastAt: isoTime,
  count: int,
  clearedAt: isoTime.nullable(),
  keyDescription: z.string().nullable(),
  banned: z.boolean(),
  bannedCategories: z.array(z.string()),
});

export const bouncerStatus = z.object({
  bouncers: z.array(
    z.object({
      keyId: int,
      description: z.string(),
      state: z.enum(['served', 'refused', 'silent', 'never']),
      refusal: z.object({ at: isoTime, ip: z.string(), code: z.string(), reason: z.string() }).nullable(),
      lastPollAt: isoTime.nullable(),
      lastPollIp: z.string().nullable(),
      polls: int,
      lastNew: int,
      lastDeleted: int,
      lastFetchAt: isoTime.nullable().describe('The last router-feed fetch with this key; null when none.'),
      cap: z
        .object({
          cap: int,
          leftOut: z.object({ intrusion: int, manual: int, filter: int, upstream: int }),
          text: z.string().describe('"capped at 15,000: 12,340 left out, all upstream"'),
        })
        .nullable()
        .describe("The key's cap and what it left out at its last answer; null when the key has no cap."),
      hosts: z.array(
        z.object({
          ip: z.string(),
          firstSeen: isoTime,
          lastSeen: isoTime,
          polls: int,
          userAgent: z.string(),
          type: z.string().nullable(),
          name: z.string().nullable(),
          version: z.string().nullable(),
          os: z.string().nullable(),
          dropped: z.record(z.string(), z.record(z.string(), z.number())),
          /** The decisions the bouncer says it holds (usage metrics' active_decisions); null when it never said. */
          activeDecisions: z.number().nullable(),
          metricsAt: isoTime.nullable(),
        }),
      ),
      refused: z.array(rejection),
    }),
  ),
  rejections: z.array(rejection),
});

export const banHistory = z.object({
  points: z.array(z.object({ t: isoTime, ...Object.fromEntries(banKind.options.map((k) => [k, int])) })),
});

export const whitelist = z.array(z.string()).describe('Addresses and CIDRs, exactly as /v1/whitelist returns them.');
