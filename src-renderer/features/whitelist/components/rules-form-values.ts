import { FAIL2BAN_BOUNDS, RULE_CATEGORIES, type BanRule, type Fail2banSettings } from '../api/fail2ban-settings.ts';
import { CELL_FIELDS, WINDOWS, type CategoryRule, type CategoryValues } from './CategoryRulesTable.tsx';
import type { RepeatOffenderValues } from './RepeatOffenderFields.tsx';

/** The ban rules form's values: numbers as typed, NaN for an empty category cell. */
export interface RulesValues extends BanRule, RepeatOffenderValues {
  PBXFirewallMaxReqSec: number;
  categories: CategoryValues;
  bantimeIncrement: boolean;
  ipv6ByPrefix: boolean;
  ipv6Prefix: number;
  escalation: boolean;
  escalationBans: number;
  escalationWindow: number;
  escalationIpv4Prefix: number;
  escalationIpv6Prefix: number;
  slowWindow: boolean;
  slowMaxretry: number;
  slowFindtime: number;
  slowBantime: number;
  protectRegistered: boolean;
  registeredLingerMinutes: number;
}

/** The fields a server error can name, so it shows under its input. */
export const FIELDS = [
  'maxretry',
  'bantime',
  'findtime',
  'PBXFirewallMaxReqSec',
  'bantimeFactor',
  'bantimeMultipliers',
  'bantimeMaxtime',
  'bantimeRndtime',
  'ipv6Prefix',
  'escalationBans',
  'escalationWindow',
  'escalationIpv4Prefix',
  'escalationIpv6Prefix',
  'slowMaxretry',
  'slowFindtime',
  'slowBantime',
  'registeredLingerMinutes',
  'preset',
  ...CELL_FIELDS,
] as const;

/** The form's values from the stored settings. */
export function toValues(stored: Fail2banSettings): RulesValues {
  const cell = (category: (typeof RULE_CATEGORIES)[number]['value']): CategoryRule => {
    const own: Partial<CategoryRule> = stored.categories?.[category] ?? {};
    const names = [...Object.values(WINDOWS.normal), ...Object.values(WINDOWS.slow)];
    return Object.fromEntries(names.map((name) => [name, own[name] ?? NaN])) as unknown as CategoryRule;
  };
  return {
    maxretry: stored.maxretry,
    bantime: stored.bantime,
    findtime: stored.findtime,
    PBXFirewallMaxReqSec: stored.PBXFirewallMaxReqSec,
    categories: Object.fromEntries(RULE_CATEGORIES.map((c) => [c.value, cell(c.value)])) as CategoryValues,
    bantimeIncrement: stored.bantimeIncrement ?? false,
    bantimeFactor: stored.bantimeFactor ?? 1,
    multipliers: (stored.bantimeMultipliers ?? []).join(' '),
    bantimeMaxtime: stored.bantimeMaxtime ?? FAIL2BAN_BOUNDS.bantimeMaxtime.max,
    bantimeRndtime: stored.bantimeRndtime ?? 0,
    bantimeOveralljails: stored.bantimeOveralljails ?? false,
    ipv6ByPrefix: stored.ipv6ByPrefix ?? false,
    ipv6Prefix: stored.ipv6Prefix ?? 64,
    escalation: stored.escalation ?? false,
    escalationBans: stored.escalationBans ?? 5,
    escalationWindow: stored.escalationWindow ?? 3600,
    escalationIpv4Prefix: stored.escalationIpv4Prefix ?? 24,
    escalationIpv6Prefix: stored.escalationIpv6Prefix ?? 48,
    slowWindow: stored.slowWindow ?? false,
    slowMaxretry: stored.slowMaxretry,
    slowFindtime: stored.slowFindtime,
    slowBantime: stored.slowBantime,
    protectRegistered: stored.protectRegistered ?? true,
    registeredLingerMinutes: stored.registeredLingerMinutes ?? 5,
  };
}

/** What a save sends: empty category cells are left out (they fall back), an empty multiplier list is null. */
export function toInput(values: RulesValues): Partial<Fail2banSettings> {
  const categories: Fail2banSettings['categories'] = {};
  for (const { value } of RULE_CATEGORIES) {
    const own = Object.fromEntries(Object.entries(values.categories[value]).filter(([, v]) => !Number.isNaN(v)));
    if (Object.keys(own).length) categories[value] = own;
  }
  const { multipliers, categories: _c, ...rest } = values;
  return {
    ...rest,
    categories,
    bantimeMultipliers: (multipliers.trim() ? multipliers.trim() : null) as unknown as number[] | null,
  };
}
