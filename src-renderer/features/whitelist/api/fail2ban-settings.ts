import type { BanCategory } from '#shared/categories.ts';
import { BANTIME_FACTOR_BOUND, inputRanges, SETTING_BOUNDS } from '#shared/setting-bounds.ts';
import type { RecordOf } from '#shared/contract/types.ts';
import { settingsResource } from '../../../lib/settings-resource.ts';
import { effectiveWhitelistKey } from './get-effective-whitelist.ts';

/** The automatic-ban categories, in the order the console shows them. */
export const RULE_CATEGORIES: readonly { value: BanCategory; label: string }[] = [
  { value: 'sip', label: 'SIP' },
  { value: 'iax', label: 'IAX' },
  { value: 'ami', label: 'AMI' },
  { value: 'http', label: 'HTTP (web)' },
];
export type RuleCategory = BanCategory;

/** One category's thresholds (the global ones have the same shape). */
export type BanRule = Pick<Fail2banSettings, 'maxretry' | 'findtime' | 'bantime'>;

/** A whitelist entry with a comment and an optional end (ISO time; null: for good). */
export type WhitelistEntry = Fail2banSettings['whitelistEntries'][number];

export type PresetChoice = Fail2banSettings['preset'];

export type Fail2banSettings = RecordOf<'Fail2ban'>;

/** The server's bounds (src-shared/), shown beside the fields: the server enforces them; the form never clamps. */
export const FAIL2BAN_BOUNDS = inputRanges({ ...SETTING_BOUNDS.fail2ban, bantimeFactor: BANTIME_FACTOR_BOUND });

/** The slow window's numbers (a second rule over a longer window). */
export type SlowRule = Pick<Fail2banSettings, 'slowMaxretry' | 'slowFindtime' | 'slowBantime'>;

/** MikoPBX's presets with their slow windows (the server's firewall/intrusion/ban-policy.ts has the same table). */
export const BAN_PRESETS: Record<Exclude<PresetChoice, 'custom'>, BanRule & SlowRule & { label: string }> = {
  weak: {
    label: 'Weak',
    ...{ maxretry: 20, findtime: 600, bantime: 600 },
    ...{ slowMaxretry: 40, slowFindtime: 86_400, slowBantime: 86_400 },
  },
  normal: {
    label: 'Normal',
    ...{ maxretry: 10, findtime: 3600, bantime: 86_400 },
    ...{ slowMaxretry: 20, slowFindtime: 86_400, slowBantime: 604_800 },
  },
  enhanced: {
    label: 'Enhanced',
    ...{ maxretry: 5, findtime: 21_600, bantime: 604_800 },
    ...{ slowMaxretry: 10, slowFindtime: 259_200, slowBantime: 2_592_000 },
  },
  paranoid: {
    label: 'Paranoid',
    ...{ maxretry: 3, findtime: 86_400, bantime: 2_592_000 },
    ...{ slowMaxretry: 6, slowFindtime: 604_800, slowBantime: 7_776_000 },
  },
};

/** The preset the form's values match (the slow window off or at the preset's numbers), or custom: the server's rule. */
export function presetOf(
  rule: BanRule & SlowRule & { slowWindow: boolean },
  categories: Partial<Record<RuleCategory, Partial<BanRule>>>,
): PresetChoice {
  if (Object.values(categories).some((c) => c && Object.values(c).some((v) => v !== undefined && !Number.isNaN(v))))
    return 'custom';
  const match = (Object.entries(BAN_PRESETS) as Array<[PresetChoice, BanRule & SlowRule]>).find(
    ([, p]) =>
      p.maxretry === rule.maxretry &&
      p.findtime === rule.findtime &&
      p.bantime === rule.bantime &&
      (!rule.slowWindow ||
        (p.slowMaxretry === rule.slowMaxretry &&
          p.slowFindtime === rule.slowFindtime &&
          p.slowBantime === rule.slowBantime)),
  );
  return match ? match[0] : 'custom';
}

/** The `fail2ban` singleton: ban thresholds and the operator whitelist, which bouncers get with the trusted filters. */
export const fail2banSettings = settingsResource({
  resource: 'fail2ban',
  queryKey: ['settings', 'fail2ban'],
  alsoInvalidates: [effectiveWhitelistKey],
});

export const fail2banKey = fail2banSettings.queryKey;
export const useFail2ban = fail2banSettings.useSettings;
export const useUpdateFail2ban = fail2banSettings.useUpdateSettings;
