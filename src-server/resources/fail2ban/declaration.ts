import { z } from 'zod';
import { BANTIME_FACTOR_BOUND, rangeText, SETTING_BOUNDS } from '../../config/setting-bounds.ts';
import { BAN_CATEGORIES, canonicalListText } from '../../firewall/model/index.ts';
import { PRESET_CHOICES } from '../../firewall/intrusion/index.ts';
import { FAIL2BAN_FIELDS, MAX_MULTIPLIERS } from '../../firewall/filters/index.ts';
import { field } from '../../resource-kit/fields.ts';
import type { ResourceDeclaration } from '../../resource-kit/types.ts';
import { escalationDeclarationFields } from './escalation-fields.ts';

const bounds = SETTING_BOUNDS.fail2ban;

/** Multipliers fail2ban's way: a list separated by spaces (or commas), or a JSON array; null for the doubling formula. */
const splitMultipliers = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const parts = value.split(/[\s,]+/).filter(Boolean);
  return parts.map((part) => (/^\d+(\.\d+)?$/.test(part) ? Number(part) : part));
};

/** Drops `null` values inside the category rules, so a cleared cell falls back to the global value. */
const dropNulls = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [category, rule] of Object.entries(value)) {
    if (rule === null) continue;
    if (typeof rule !== 'object' || Array.isArray(rule)) out[category] = rule;
    else {
      const kept = Object.fromEntries(
        Object.entries(rule as Record<string, unknown>).filter(([, v]) => v !== null && v !== ''),
      );
      if (Object.keys(kept).length) out[category] = kept;
    }
  }
  return out;
};

/** Entries stored canonical, the comment trimmed. */
const sanitizeEntries = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map((e) =>
        typeof e === 'object' && e !== null && typeof (e as { value?: unknown }).value === 'string'
          ? {
              ...e,
              value: canonicalListText((e as { value: string }).value.trim()),
              ...(typeof (e as { comment?: unknown }).comment === 'string'
                ? { comment: (e as { comment: string }).comment.trim() }
                : {}),
            }
          : e,
      )
    : value;

/**
 * Intrusion-ban rules (ARCHITECTURE "fail2ban shape", extended by issue 20); unknown fields are
 * ignored and never echoed. Each field's schema and default: firewall/filters/fail2ban-fields.ts (bounds:
 * config/setting-bounds.ts). Whitelist entries are stored canonical.
 */
export const fail2banDeclaration = {
  name: 'fail2ban',
  description:
    'Intrusion-ban rules: failures allowed (maxretry) within findtime seconds before a ' +
    'bantime-second ban, per category (SIP, IAX, AMI, HTTP) with presets; repeat offenders ' +
    'banned longer; IPv6 by prefix; the whitelist.',
  processor: 'Fail2BanManagementProcessor',
  kind: 'singleton',
  security: { permission: 'Fail2Ban', channels: ['localhost', 'bearer_token'] },
  fields: {
    preset: field.text(z.enum(PRESET_CHOICES, { error: `one of ${PRESET_CHOICES.join(', ')}` }), {
      description:
        'MikoPBX preset: weak (20 failures / 10 min / 10 min ban), normal (10 / 1 h / 1 day), ' +
        'enhanced (5 / 6 h / 7 days), paranoid (3 / 24 h / 30 days), each with a slow window ' +
        '(40 / 24 h / 1 day, 20 / 24 h / 7 days, 10 / 3 days / 30 days, 6 / 7 days / 90 days). ' +
        'Writing one sets maxretry, findtime, bantime and the slow window (unless given too) and ' +
        'clears the category overrides; read back, it is "custom" as soon as a value differs.',
    }),
    maxretry: field.integer(FAIL2BAN_FIELDS.maxretry.schema, {
      default: FAIL2BAN_FIELDS.maxretry.default,
      description: `Failures (${rangeText(bounds.maxretry)}) that trigger a ban.`,
    }),
    bantime: field.integer(FAIL2BAN_FIELDS.bantime.schema, {
      default: FAIL2BAN_FIELDS.bantime.default,
      description:
        `Ban length in seconds (${rangeText(bounds.bantime)}). Bans longer than ipset's 2147483 s ` +
        `are published capped and renewed by each poll.`,
    }),
    findtime: field.integer(FAIL2BAN_FIELDS.findtime.schema, {
      default: FAIL2BAN_FIELDS.findtime.default,
      description: `Window in seconds in which failures are counted (${rangeText(bounds.findtime)}).`,
    }),
    categories: field.json(FAIL2BAN_FIELDS.categories.schema, {
      sanitize: dropNulls,
      default: () => ({}),
      description:
        `Per-category rules: {${BAN_CATEGORIES.join(', ')}: {maxretry?, findtime?, bantime?, ` +
        `slowMaxretry?, slowFindtime?, slowBantime?}}; a value left out (or null) falls back to the global one.`,
    }),
    whitelist: field.text(FAIL2BAN_FIELDS.whitelist.schema, {
      // Stored canonical (IPv4-mapped IPv6 unwrapped, IPv6 compressed), separators as written.
      sanitize: (value) => (typeof value === 'string' ? canonicalListText(value.trim()) : value),
      default: FAIL2BAN_FIELDS.whitelist.default,
      description: 'Addresses or CIDRs never banned, separated by spaces or commas; also published on /v1/whitelist.',
    }),
    whitelistEntries: field.json(FAIL2BAN_FIELDS.whitelistEntries.schema, {
      sanitize: sanitizeEntries,
      default: () => [],
      description:
        'Whitelist entries with a comment and an optional end: [{value, comment, until (ISO time, ' +
        'or null for good)}]. Saving one lifts the active bans it covers; at its end it disappears. ' +
        'Published on /v1/whitelist while in force.',
    }),
    PBXFirewallMaxReqSec: field.integer(FAIL2BAN_FIELDS.PBXFirewallMaxReqSec.schema, {
      default: FAIL2BAN_FIELDS.PBXFirewallMaxReqSec.default,
      description: `Requests per second allowed from one address (${rangeText(bounds.PBXFirewallMaxReqSec)}).`,
    }),
    bantimeIncrement: field.boolean({
      default: FAIL2BAN_FIELDS.bantimeIncrement.default,
      description: "fail2ban's bantime.increment: each new ban of an address lasts longer than its earlier ones.",
    }),
    bantimeFactor: field.json(FAIL2BAN_FIELDS.bantimeFactor.schema, {
      sanitize: (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
      default: FAIL2BAN_FIELDS.bantimeFactor.default,
      description:
        `bantime.factor (${BANTIME_FACTOR_BOUND.min}-${BANTIME_FACTOR_BOUND.max}): the n-th earlier ban ` +
        'multiplies bantime by factor × 2^n, or factor × multipliers[n].',
    }),
    bantimeMultipliers: field.json(FAIL2BAN_FIELDS.bantimeMultipliers.schema, {
      sanitize: splitMultipliers,
      default: FAIL2BAN_FIELDS.bantimeMultipliers.default,
      description:
        `bantime.multipliers: up to ${MAX_MULTIPLIERS} numbers ("1 2 4 8"); the ban after n earlier ` +
        `ones lasts bantime × factor × multipliers[n] (the last repeats). null: the doubling ` +
        `formula.`,
    }),
    bantimeMaxtime: field.integer(FAIL2BAN_FIELDS.bantimeMaxtime.schema, {
      default: FAIL2BAN_FIELDS.bantimeMaxtime.default,
      description:
        `bantime.maxtime in seconds (${rangeText(bounds.bantimeMaxtime)}): no incremented ban is ` +
        `longer. Not below any bantime while increment is on.`,
    }),
    bantimeRndtime: field.integer(FAIL2BAN_FIELDS.bantimeRndtime.schema, {
      default: FAIL2BAN_FIELDS.bantimeRndtime.default,
      description:
        `bantime.rndtime in seconds (${rangeText(bounds.bantimeRndtime)}): up to this much is added ` +
        `at random to an incremented ban.`,
    }),
    bantimeOveralljails: field.boolean({
      default: FAIL2BAN_FIELDS.bantimeOveralljails.default,
      description: 'bantime.overalljails: count earlier bans of the address in every category, not only this one.',
    }),
    ipv6ByPrefix: field.boolean({
      default: FAIL2BAN_FIELDS.ipv6ByPrefix.default,
      description: 'Count failures and ban IPv6 sources by prefix (ipv6Prefix), published as a Range decision.',
    }),
    slowWindow: field.boolean({
      default: FAIL2BAN_FIELDS.slowWindow.default,
      description:
        'A second rule per category, counted alongside the first over a longer window, so a slow ' +
        'brute force that stays under maxretry per findtime is banned too.',
    }),
    slowMaxretry: field.integer(FAIL2BAN_FIELDS.slowMaxretry.schema, {
      default: FAIL2BAN_FIELDS.slowMaxretry.default,
      description: `Failures (${rangeText(bounds.slowMaxretry)}) within slowFindtime that trigger a ban.`,
    }),
    slowFindtime: field.integer(FAIL2BAN_FIELDS.slowFindtime.schema, {
      default: FAIL2BAN_FIELDS.slowFindtime.default,
      description: `The slow window in seconds (${rangeText(bounds.slowFindtime)}); longer than each category's findtime.`,
    }),
    slowBantime: field.integer(FAIL2BAN_FIELDS.slowBantime.schema, {
      default: FAIL2BAN_FIELDS.slowBantime.default,
      description: `Length in seconds (${rangeText(bounds.slowBantime)}) of a ban given by the slow window.`,
    }),
    ipv6Prefix: field.integer(FAIL2BAN_FIELDS.ipv6Prefix.schema, {
      default: FAIL2BAN_FIELDS.ipv6Prefix.default,
      description: `IPv6 prefix length (${rangeText(bounds.ipv6Prefix)}) failures are counted and bans given by, when ipv6ByPrefix is on.`,
    }),
    ...escalationDeclarationFields,
    protectRegistered: field.boolean({
      default: FAIL2BAN_FIELDS.protectRegistered.default,
      description:
        'Registered phones are never cut off: failures from an address where a PJSIP endpoint is ' +
        'registered flag the failing account instead of banning the address.',
    }),
    registeredLingerMinutes: field.integer(FAIL2BAN_FIELDS.registeredLingerMinutes.schema, {
      default: FAIL2BAN_FIELDS.registeredLingerMinutes.default,
      description: `Minutes (${rangeText(bounds.registeredLingerMinutes)}) an address stays protected after its last registration ends.`,
    }),
  },
  operations: ['getRecord', 'update', 'patch'],
} satisfies ResourceDeclaration;
