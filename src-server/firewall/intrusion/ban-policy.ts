import ipaddr from 'ipaddr.js';
import type { BanCategory } from '../model/index.ts';
import type { BanRule, Fail2banSettings, SlowRule } from '../filters/index.ts';

/**
 * MikoPBX's preset slider: one choice sets the three global numbers (and clears the category
 * overrides), and turns on a slow window that catches what stays under them: about twice the
 * failures over a window 4 to 24 times longer, banned for longer (one guess every 10 minutes
 * never trips `normal`'s 10 per hour, but trips its 20 per day).
 */
export const BAN_PRESETS = {
  weak: { maxretry: 20, findtime: 600, bantime: 600, slowMaxretry: 40, slowFindtime: 86_400, slowBantime: 86_400 },
  normal: {
    maxretry: 10,
    findtime: 3600,
    bantime: 86_400,
    slowMaxretry: 20,
    slowFindtime: 86_400,
    slowBantime: 604_800,
  },
  enhanced: {
    maxretry: 5,
    findtime: 21_600,
    bantime: 604_800,
    slowMaxretry: 10,
    slowFindtime: 259_200,
    slowBantime: 2_592_000,
  },
  paranoid: {
    maxretry: 3,
    findtime: 86_400,
    bantime: 2_592_000,
    slowMaxretry: 6,
    slowFindtime: 604_800,
    slowBantime: 7_776_000,
  },
} as const satisfies Record<string, BanRule & SlowRule>;

type PolicyNumbers = Pick<
  Fail2banSettings,
  'maxretry' | 'findtime' | 'bantime' | 'categories' | 'slowWindow' | 'slowMaxretry' | 'slowFindtime' | 'slowBantime'
>;

export type BanPresetName = keyof typeof BAN_PRESETS;
export const PRESET_CHOICES = [...(Object.keys(BAN_PRESETS) as BanPresetName[]), 'custom'] as const;
export type PresetChoice = (typeof PRESET_CHOICES)[number];

/**
 * The preset the rules match exactly (global numbers, no category override, and the slow window
 * off or at the preset's numbers), or `custom`.
 */
export function presetOf(settings: PolicyNumbers): PresetChoice {
  if (Object.values(settings.categories).some((rule) => rule && Object.keys(rule).length > 0)) return 'custom';
  for (const [name, preset] of Object.entries(BAN_PRESETS) as Array<[BanPresetName, BanRule & SlowRule]>) {
    const same = (keys: ReadonlyArray<keyof (BanRule & SlowRule)>) => keys.every((k) => preset[k] === settings[k]);
    if (!same(['maxretry', 'findtime', 'bantime'])) continue;
    if (!settings.slowWindow || same(['slowMaxretry', 'slowFindtime', 'slowBantime'])) return name;
  }
  return 'custom';
}

/** The rule of one category: its own values, each falling back to the global one. */
export function ruleFor(
  settings: Pick<Fail2banSettings, 'maxretry' | 'findtime' | 'bantime' | 'categories'>,
  category: BanCategory,
): BanRule {
  const own = settings.categories[category] ?? {};
  return {
    maxretry: own.maxretry ?? settings.maxretry,
    findtime: own.findtime ?? settings.findtime,
    bantime: own.bantime ?? settings.bantime,
  };
}

/** The slow window of one category (its own values over the global ones), or undefined while it is off. */
export function slowRuleFor(settings: PolicyNumbers, category: BanCategory): BanRule | undefined {
  if (!settings.slowWindow) return undefined;
  const own = settings.categories[category] ?? {};
  return {
    maxretry: own.slowMaxretry ?? settings.slowMaxretry,
    findtime: own.slowFindtime ?? settings.slowFindtime,
    bantime: own.slowBantime ?? settings.slowBantime,
  };
}

/** Above this many earlier bans the doubling formula stops growing (fail2ban's `1 << min(n, 20)`). */
const MAX_DOUBLINGS = 20;

/**
 * fail2ban's `bantime.increment`: the length of a ban after `earlier` bans of the same address.
 * With multipliers: `bantime * factor * multipliers[min(n, last)]`; otherwise `bantime * factor * 2^n`
 * (jail.conf's default formula). Never shorter than `bantime`, at most `maxtime`, then up to
 * `rndtime` random seconds added (so botnets cannot compute the exact end). Off: `bantime`.
 */
export function incrementedBantime(
  settings: Pick<
    Fail2banSettings,
    'bantimeIncrement' | 'bantimeFactor' | 'bantimeMultipliers' | 'bantimeMaxtime' | 'bantimeRndtime'
  >,
  bantime: number,
  earlier: number,
  random: () => number = Math.random,
): number {
  if (!settings.bantimeIncrement || earlier <= 0) return bantime;
  const multipliers = settings.bantimeMultipliers;
  const growth = multipliers
    ? multipliers[Math.min(earlier, multipliers.length - 1)]!
    : 2 ** Math.min(earlier, MAX_DOUBLINGS);
  const grown = Math.max(bantime, Math.round(bantime * settings.bantimeFactor * growth));
  const capped = Math.min(grown, Math.max(bantime, settings.bantimeMaxtime));
  return capped + Math.floor(random() * (settings.bantimeRndtime + 1));
}

/** `1st`, `2nd`, `3rd`, `11th`: how the console and the history name a ban's rank. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The canonical prefix (`2001:db8:1:2::/64`) an IPv6 address belongs to, or undefined for IPv4,
 * garbage and a /128 (one address: its own value, never a second `…/128` one).
 */
export function ipv6PrefixOf(ip: string, length: number): string | undefined {
  if (!ip.includes(':') || !ipaddr.IPv6.isValid(ip) || length >= 128) return undefined;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return undefined;
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${length}`);
  return `${network.toString()}/${length}`;
}
