import { z } from 'zod';

/** The inclusive range of an integer setting, and what to say about it in the 422 message and the docs. */
export interface IntegerBound {
  min: number;
  max: number;
  /** Unit shown after the numbers (`s`). */
  unit?: string;
  /** Why the maximum is what it is, when it is not obvious. */
  reason?: string;
}

/** The longest ban a rule may give: a year. Longer than ipset's cap, bans are published capped and renewed by each poll. */
export const MAX_BAN_SECONDS = 31_536_000;

/**
 * Every numeric setting the API stores, with its bounds: one table that the declarations, the
 * 422 messages and docs/settings.md all follow. Outside the bounds a write gets 422 naming the
 * bound; nothing is clamped.
 */
export const SETTING_BOUNDS = {
  fail2ban: {
    maxretry: { min: 1, max: 100 },
    findtime: { min: 60, max: 604_800, unit: 's', reason: '7 days' },
    bantime: { min: 60, max: MAX_BAN_SECONDS, unit: 's', reason: '365 days' },
    PBXFirewallMaxReqSec: { min: 1, max: 100_000 },
    bantimeMaxtime: { min: 60, max: MAX_BAN_SECONDS, unit: 's', reason: '365 days' },
    bantimeRndtime: { min: 0, max: 86_400, unit: 's', reason: '1 day' },
    ipv6Prefix: { min: 32, max: 128, reason: 'a /32 is a whole provider allocation' },
  },
  'general-settings': {
    APIQueueMaxLength: { min: 1, max: 10_000 },
    APIRequestTTL: { min: 1, max: 3600, unit: 's', reason: '1 hour' },
    auditRetentionDays: { min: 1, max: 3650, unit: 'days', reason: '10 years' },
    banHistoryRetentionDays: { min: 1, max: 3650, unit: 'days', reason: '10 years' },
  },
  https: {
    port: { min: 1, max: 65_535, reason: 'the largest TCP port' },
  },
  'crowdsec-link': {
    pullIntervalSeconds: { min: 1, max: 3600, unit: 's', reason: '1 hour' },
  },
} as const satisfies Record<string, Record<string, IntegerBound>>;

/** `60 s`, `90 days`, `1 day`: a plural unit word loses its `s` for one (symbols such as `s` stay). */
const withUnit = (value: number, bound: IntegerBound) => {
  if (!bound.unit) return String(value);
  const unit = value === 1 && bound.unit.length > 2 && bound.unit.endsWith('s') ? bound.unit.slice(0, -1) : bound.unit;
  return `${value} ${unit}`;
};

/** A zod integer schema for a bound whose messages name it: `must be at most 2147483 s (ipset's ...)`. */
export function boundedInteger(bound: IntegerBound): z.ZodNumber {
  const range = `from ${withUnit(bound.min, bound)} to ${withUnit(bound.max, bound)}`;
  return z
    .number({ error: `must be a whole number ${range}` })
    .int({ error: `must be a whole number ${range}` })
    .min(bound.min, { error: `must be at least ${withUnit(bound.min, bound)}` })
    .max(bound.max, {
      error: `must be at most ${withUnit(bound.max, bound)}${bound.reason ? ` (${bound.reason})` : ''}`,
    });
}

/** `1-100`, `60-2147483 s`: the range as the field descriptions show it. */
export function rangeText(bound: IntegerBound): string {
  return `${bound.min}-${bound.max}${bound.unit ? ` ${bound.unit}` : ''}`;
}
