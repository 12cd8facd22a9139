import { z } from 'zod';
import { BANTIME_FACTOR_BOUND, boundedInteger, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { BAN_CATEGORIES, type BanCategory } from '../model/index.ts';
import { ESCALATION_FIELDS } from './escalation-fields.ts';

const bounds = SETTING_BOUNDS.fail2ban;

/** The most multipliers `bantimeMultipliers` holds. */
export const MAX_MULTIPLIERS = 20;

const multipliersSchema = z
  .array(
    z
      .number({ error: 'each multiplier must be a number' })
      .positive({ error: 'each multiplier must be above 0' })
      .max(1000, { error: 'each multiplier must be at most 1000' }),
    {
      error: 'a list of numbers, such as "1 2 4 8", or null for the doubling formula',
    },
  )
  .min(1, { error: 'the list is empty; give at least one number, or null for the doubling formula' })
  .max(MAX_MULTIPLIERS, { error: `at most ${MAX_MULTIPLIERS} multipliers` })
  .nullable();

const ruleSchema = z
  .object({
    maxretry: boundedInteger(bounds.maxretry).optional(),
    findtime: boundedInteger(bounds.findtime).optional(),
    bantime: boundedInteger(bounds.bantime).optional(),
    slowMaxretry: boundedInteger(bounds.slowMaxretry).optional(),
    slowFindtime: boundedInteger(bounds.slowFindtime).optional(),
    slowBantime: boundedInteger(bounds.slowBantime).optional(),
  })
  .strict();
const categoriesSchema = z
  .object(
    Object.fromEntries(BAN_CATEGORIES.map((c) => [c, ruleSchema.optional()])) as Record<
      BanCategory,
      z.ZodOptional<typeof ruleSchema>
    >,
  )
  .strict();

const whitelistEntrySchema = z
  .object({
    value: z.string({ error: 'an address or CIDR' }).min(1, { error: 'an address or CIDR' }),
    comment: z.string().max(200, { error: 'at most 200 characters' }).default(''),
    until: z
      .union([
        z.null(),
        z.iso.datetime({ offset: true, error: 'an ISO date and time such as 2026-12-01T18:00:00Z, or null for good' }),
      ])
      .default(null),
  })
  .strict();

const bantimeFactorSchema = z
  .number({ error: `must be a number from ${BANTIME_FACTOR_BOUND.min} to ${BANTIME_FACTOR_BOUND.max}` })
  .min(BANTIME_FACTOR_BOUND.min, { error: `must be at least ${BANTIME_FACTOR_BOUND.min}` })
  .max(BANTIME_FACTOR_BOUND.max, { error: `must be at most ${BANTIME_FACTOR_BOUND.max}` });

/**
 * Each stored fail2ban setting: the schema a write must pass, and its value until one is written.
 * The `fail2ban` declaration (resources/fail2ban) builds its fields from these, and
 * Fail2banSettings is inferred from them, so the API and the firewall read one shape.
 */
export const FAIL2BAN_FIELDS = {
  maxretry: { schema: boundedInteger(bounds.maxretry), default: 20 },
  bantime: { schema: boundedInteger(bounds.bantime), default: 600 },
  findtime: { schema: boundedInteger(bounds.findtime), default: 600 },
  whitelist: { schema: z.string().max(10_000), default: '' },
  PBXFirewallMaxReqSec: { schema: boundedInteger(bounds.PBXFirewallMaxReqSec), default: 100 },
  // Per-category overrides: a value left out falls back to the global one.
  categories: { schema: categoriesSchema, default: {} },
  // fail2ban's `bantime.increment` and its options: repeat offenders are banned longer. (The
  // declaration's boolean fields check with field.boolean's own schema; these give their type.)
  bantimeIncrement: { schema: z.boolean(), default: false },
  bantimeFactor: { schema: bantimeFactorSchema, default: 1 },
  // null: the doubling formula (`bantime * factor * 2^n`); a list: `bantime * factor * multipliers[n]`.
  bantimeMultipliers: { schema: multipliersSchema, default: null },
  bantimeMaxtime: { schema: boundedInteger(bounds.bantimeMaxtime), default: 31_536_000 },
  bantimeRndtime: { schema: boundedInteger(bounds.bantimeRndtime), default: 0 },
  bantimeOveralljails: { schema: z.boolean(), default: false },
  // Count failures and ban IPv6 sources by prefix.
  ipv6ByPrefix: { schema: z.boolean(), default: false },
  ipv6Prefix: { schema: boundedInteger(bounds.ipv6Prefix), default: 64 },
  // The slow window: a second rule per category, counted alongside the first (off until turned on
  // or a preset is chosen; these defaults are the weak preset's).
  slowWindow: { schema: z.boolean(), default: false },
  slowMaxretry: { schema: boundedInteger(bounds.slowMaxretry), default: 40 },
  slowFindtime: { schema: boundedInteger(bounds.slowFindtime), default: 86_400 },
  slowBantime: { schema: boundedInteger(bounds.slowBantime), default: 86_400 },
  // Registered phones are never cut off (docs/firewall.md): their address stays protected this long after the last registration ends.
  protectRegistered: { schema: z.boolean(), default: true },
  registeredLingerMinutes: { schema: boundedInteger(bounds.registeredLingerMinutes), default: 5 },
  whitelistEntries: { schema: z.array(whitelistEntrySchema).max(1000, { error: 'at most 1000 entries' }), default: [] },
  ...ESCALATION_FIELDS,
} satisfies Record<string, { schema: z.ZodType; default: unknown }>;

type Fail2banFields = typeof FAIL2BAN_FIELDS;

/** Intrusion-ban rules (ARCHITECTURE "fail2ban shape", extended by issue 20). */
export type Fail2banSettings = { [Name in keyof Fail2banFields]: z.output<Fail2banFields[Name]['schema']> };

/** A whitelist entry with a comment and an optional end (ISO time; null: for good). */
export type WhitelistEntry = z.output<typeof whitelistEntrySchema>;
