/** The inclusive range of an integer setting, and what to say about it in the 422 message and the docs. */
export interface IntegerBound {
  min: number;
  max: number;
  /** Unit shown after the numbers (`s`). */
  unit?: string;
  /** Why the maximum is what it is, when it is not obvious. */
  reason?: string;
}

/** ipset (and so the iptables and nftables bouncers) refuses timeouts above 2^31/1000 seconds. */
export const IPSET_MAX_TIMEOUT_SECONDS = 2_147_483;

/** The longest ban a rule may give: a year. Longer than ipset's cap, bans are published capped and renewed by each poll. */
export const MAX_BAN_SECONDS = 31_536_000;

/**
 * Every numeric setting the API stores, with its bounds: one table that the declarations, the
 * 422 messages, docs/settings.md and the console's forms all follow. Outside the bounds a write
 * gets 422 naming the bound; nothing is clamped.
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
    // Neighbourhood escalation (firewall/neighbourhood-escalation.ts).
    escalationBans: { min: 2, max: 256, reason: 'a /24 holds 256 addresses' },
    escalationWindow: { min: 60, max: 604_800, unit: 's', reason: '7 days' },
    escalationIpv4Prefix: { min: 16, max: 32 },
    escalationIpv6Prefix: { min: 32, max: 64, reason: 'a /64 is one subnet: ipv6Prefix bans it' },
    // The slow window: a second rule over a longer window (a slow brute force stays under the first).
    slowMaxretry: { min: 2, max: 1000 },
    slowFindtime: { min: 3600, max: 2_592_000, unit: 's', reason: '30 days' },
    slowBantime: { min: 60, max: MAX_BAN_SECONDS, unit: 's', reason: '365 days' },
    registeredLingerMinutes: { min: 0, max: 60, unit: 'min', reason: '1 hour' },
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

/** fail2ban's bantime.factor: a number (decimals allowed), so it is not in the integer table. */
export const BANTIME_FACTOR_BOUND = { min: 1, max: 100 } as const;

/** A table of bounds as number inputs take them: `{min, max}` only, so they can be spread into a field's props. */
export function inputRanges<T extends Record<string, { min: number; max: number }>>(
  table: T,
): { [K in keyof T]: { min: number; max: number } } {
  return Object.fromEntries(Object.entries(table).map(([name, { min, max }]) => [name, { min, max }])) as {
    [K in keyof T]: { min: number; max: number };
  };
}
