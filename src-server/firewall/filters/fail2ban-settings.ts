import { parseCidr, type Cidr } from '../../net/cidr.ts';
import type { Db } from '../../storage/database.ts';
import { defineSetting, readSetting, STORED_FIELDS } from '../../storage/settings.ts';
import { BAN_CATEGORIES, splitList } from '../model/index.ts';
import { escalationFromStored } from './escalation-fields.ts';
import { FAIL2BAN_FIELDS, type Fail2banSettings, type WhitelistEntry } from './fail2ban-fields.ts';

/** Settings key of the `fail2ban` singleton. */
export const FAIL2BAN_SETTING_KEY = 'fail2ban';
/** The stored object; `fail2banFromStored` takes each field or its default (backup imports share that rule). */
const storedFail2ban = defineSetting(FAIL2BAN_SETTING_KEY, STORED_FIELDS, {});

/** The three numbers of one ban rule (fail2ban's jail options). */
export interface BanRule {
  maxretry: number;
  findtime: number;
  bantime: number;
}

/** The slow window's three numbers, named as stored. */
export interface SlowRule {
  slowMaxretry: number;
  slowFindtime: number;
  slowBantime: number;
}

/** Per-category overrides: a value left out falls back to the global one. */
type CategoryRules = Fail2banSettings['categories'];

/** Every setting at its default (FAIL2BAN_FIELDS). */
export const FAIL2BAN_DEFAULTS = Object.fromEntries(
  Object.entries(FAIL2BAN_FIELDS).map(([name, field]) => [name, field.default]),
) as Fail2banSettings;

const RULE_FIELDS = ['maxretry', 'findtime', 'bantime', 'slowMaxretry', 'slowFindtime', 'slowBantime'] as const;
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stored category overrides, keeping only whole numbers of known categories. */
function readCategories(value: unknown): CategoryRules {
  const out: CategoryRules = {};
  if (!isObject(value)) return out;
  for (const category of BAN_CATEGORIES) {
    const stored = value[category];
    if (!isObject(stored)) continue;
    const rule: Partial<BanRule & SlowRule> = {};
    for (const name of RULE_FIELDS) if (isInt(stored[name])) rule[name] = stored[name];
    if (Object.keys(rule).length) out[category] = rule;
  }
  return out;
}

function readEntries(value: unknown): WhitelistEntry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((e) =>
    typeof e.value === 'string'
      ? [
          {
            value: e.value,
            comment: typeof e.comment === 'string' ? e.comment : '',
            until: typeof e.until === 'string' ? e.until : null,
          },
        ]
      : [],
  );
}

/** Stored values over the defaults; values of the wrong type read as their default. */
export function readFail2ban(db: Db): Fail2banSettings {
  return fail2banFromStored(readSetting(db, storedFail2ban));
}

/** The settings from a stored (or imported) object, every missing or mistyped value at its default. */
export function fail2banFromStored(stored: Record<string, unknown>): Fail2banSettings {
  const d = FAIL2BAN_DEFAULTS;
  const int = (
    name:
      | 'maxretry'
      | 'bantime'
      | 'findtime'
      | 'PBXFirewallMaxReqSec'
      | 'bantimeMaxtime'
      | 'bantimeRndtime'
      | 'ipv6Prefix'
      | 'slowMaxretry'
      | 'slowFindtime'
      | 'slowBantime'
      | 'registeredLingerMinutes',
  ) => (isInt(stored[name]) ? stored[name] : d[name]);
  const bool = (
    name: 'bantimeIncrement' | 'bantimeOveralljails' | 'ipv6ByPrefix' | 'slowWindow' | 'protectRegistered',
  ) => (typeof stored[name] === 'boolean' ? stored[name] : d[name]);
  const multipliers = stored.bantimeMultipliers;
  return {
    maxretry: int('maxretry'),
    bantime: int('bantime'),
    findtime: int('findtime'),
    whitelist: typeof stored.whitelist === 'string' ? stored.whitelist : '',
    PBXFirewallMaxReqSec: int('PBXFirewallMaxReqSec'),
    categories: readCategories(stored.categories),
    bantimeIncrement: bool('bantimeIncrement'),
    bantimeFactor:
      typeof stored.bantimeFactor === 'number' && stored.bantimeFactor > 0 ? stored.bantimeFactor : d.bantimeFactor,
    bantimeMultipliers:
      Array.isArray(multipliers) && multipliers.length > 0 && multipliers.every((m) => typeof m === 'number')
        ? (multipliers as number[])
        : null,
    bantimeMaxtime: int('bantimeMaxtime'),
    bantimeRndtime: int('bantimeRndtime'),
    bantimeOveralljails: bool('bantimeOveralljails'),
    ipv6ByPrefix: bool('ipv6ByPrefix'),
    ipv6Prefix: int('ipv6Prefix'),
    whitelistEntries: readEntries(stored.whitelistEntries),
    ...escalationFromStored(stored),
    slowWindow: bool('slowWindow'),
    slowMaxretry: int('slowMaxretry'),
    slowFindtime: int('slowFindtime'),
    slowBantime: int('slowBantime'),
    protectRegistered: bool('protectRegistered'),
    registeredLingerMinutes: int('registeredLingerMinutes'),
  };
}

/** Whether a whitelist entry is in force at `now` (no end, or an end still ahead). */
export const entryInForce = (entry: WhitelistEntry, now: number): boolean =>
  entry.until === null || Date.parse(entry.until) > now;

/**
 * The fail2ban whitelist as parsed ranges, in the order written: the plain list, then the entries
 * with a comment that are in force at `now`.
 */
export function whitelistRanges(
  settings: Pick<Fail2banSettings, 'whitelist' | 'whitelistEntries'>,
  now: number,
): Array<{ text: string; cidr: Cidr }> {
  const out: Array<{ text: string; cidr: Cidr }> = [];
  const texts = [
    ...splitList(settings.whitelist),
    ...settings.whitelistEntries.filter((e) => entryInForce(e, now)).map((e) => e.value),
  ];
  for (const text of texts) {
    const cidr = parseCidr(text);
    if (cidr) out.push({ text, cidr });
  }
  return out;
}

/** The end of the whitelist entry that ends first after `now`, or Infinity. */
export function nextWhitelistEnd(settings: Pick<Fail2banSettings, 'whitelistEntries'>, now: number): number {
  let next = Infinity;
  for (const entry of settings.whitelistEntries) {
    const end = entry.until === null ? Infinity : Date.parse(entry.until);
    if (end > now && end < next) next = end;
  }
  return next;
}
