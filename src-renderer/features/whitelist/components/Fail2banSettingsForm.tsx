import { NativeSelect, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import {
  BAN_PRESETS,
  FAIL2BAN_BOUNDS,
  fail2banSettings,
  presetOf,
  RULE_CATEGORIES,
  type BanRule,
  type Fail2banSettings,
  type PresetChoice,
} from '../api/fail2ban-settings.ts';
import { CategoryRulesTable, CELL_FIELDS, type CategoryValues } from './CategoryRulesTable.tsx';
import { RepeatOffenderFields, type RepeatOffenderValues } from './RepeatOffenderFields.tsx';
import { SwitchedSection } from './SwitchedSection.tsx';

interface RulesValues extends BanRule, RepeatOffenderValues {
  PBXFirewallMaxReqSec: number;
  categories: CategoryValues;
  bantimeIncrement: boolean;
  ipv6ByPrefix: boolean;
  ipv6Prefix: number;
}

const FIELDS = [
  'maxretry',
  'bantime',
  'findtime',
  'PBXFirewallMaxReqSec',
  'bantimeFactor',
  'bantimeMultipliers',
  'bantimeMaxtime',
  'bantimeRndtime',
  'ipv6Prefix',
  'preset',
  ...CELL_FIELDS,
] as const;

const PRESET_OPTIONS = [
  ...Object.entries(BAN_PRESETS).map(([value, p]) => ({ value, label: p.label })),
  { value: 'custom', label: 'Custom' },
];

function toValues(stored: Fail2banSettings): RulesValues {
  const cell = (category: (typeof RULE_CATEGORIES)[number]['value']): BanRule => {
    const own = stored.categories?.[category] ?? {};
    return { maxretry: own.maxretry ?? NaN, findtime: own.findtime ?? NaN, bantime: own.bantime ?? NaN };
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
  };
}

/** What a save sends: empty category cells are left out (they fall back), an empty multiplier list is null. */
function toInput(values: RulesValues): Partial<Fail2banSettings> {
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

/**
 * Ban rules: a MikoPBX preset or custom numbers, each service's own rule, longer bans for repeat
 * offenders (fail2ban's bantime.increment) and IPv6 counted by prefix.
 */
export function Fail2banSettingsForm() {
  const narrow = useNarrowScreen();
  const form = useSettingsForm(fail2banSettings, {
    toValues,
    toInput,
    fields: FIELDS,
    saved: { title: 'Ban rules saved', message: 'New bans use them at once.' },
    bounds: FAIL2BAN_BOUNDS,
  });
  const { errors, set, setValues, boundedField, switchField } = form;
  const choosePreset = (choice: string) => {
    if (choice === 'custom') return;
    const preset = BAN_PRESETS[choice as Exclude<PresetChoice, 'custom'>];
    setValues(
      (current) =>
        current && {
          ...current,
          maxretry: preset.maxretry,
          findtime: preset.findtime,
          bantime: preset.bantime,
          categories: Object.fromEntries(
            RULE_CATEGORIES.map((c) => [c.value, { maxretry: NaN, findtime: NaN, bantime: NaN }]),
          ) as CategoryValues,
        },
    );
  };
  return (
    <SettingsForm form={form} label="ban rules" name="Ban rules" submitLabel="Save ban rules" maw={880}>
      {(values) => {
        const preset = presetOf(values, values.categories);
        return (
          <>
            <Stack gap={4}>
              {narrow ? (
                <NativeSelect
                  label="Preset"
                  value={preset}
                  onChange={(e) => choosePreset(e.currentTarget.value)}
                  data={PRESET_OPTIONS}
                  error={errors.byField.preset}
                />
              ) : (
                <>
                  <Text size="sm" fw={500} id="preset-label">
                    Preset
                  </Text>
                  <SegmentedControl
                    aria-labelledby="preset-label"
                    value={preset}
                    onChange={choosePreset}
                    data={PRESET_OPTIONS}
                    data-testid="ban-preset"
                  />
                </>
              )}
              <Text size="xs" c="dimmed">
                Weak: 20 failures in 10 min, 10 min ban. Normal: 10 in 1 h, 1 day. Enhanced: 5 in 6 h, 7 days. Paranoid:
                3 in 24 h, 30 days. Any other value is Custom.
              </Text>
            </Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <BoundedNumberInput label="Failures before a ban" {...boundedField('maxretry')} />
              <DurationInput
                label="Counting window"
                description="Failures older than this are forgotten."
                {...boundedField('findtime')}
              />
              <DurationInput
                label="Ban duration"
                description="How long a banned address stays blocked. Over 24.8 days, bouncers get it in 24.8-day steps."
                {...boundedField('bantime')}
              />
              <BoundedNumberInput
                label="Max requests per second"
                description="Per address, on the web interface."
                {...boundedField('PBXFirewallMaxReqSec')}
              />
            </SimpleGrid>
            <CategoryRulesTable
              values={values.categories}
              global={values}
              onChange={(category, name, value) =>
                set('categories', {
                  ...values.categories,
                  [category]: { ...values.categories[category], [name]: value },
                })
              }
              errors={errors.byField}
            />
            <SwitchedSection
              title="Repeat offenders"
              label="Ban repeat offenders longer"
              description={
                "fail2ban's bantime.increment: each new ban of an address lasts longer than the one before, " +
                'counted from the ban history.'
              }
              {...switchField('bantimeIncrement')}
            >
              <RepeatOffenderFields
                values={values}
                onChange={(patch) => setValues((current) => current && { ...current, ...patch })}
                errors={errors.byField}
              />
            </SwitchedSection>
            <SwitchedSection
              title="IPv6"
              label="Count and ban IPv6 by prefix"
              description={
                'Failures from any address of one prefix count together, and the whole prefix is banned. A ' +
                'whitelisted or trusted address inside keeps the ban to single addresses. Bouncers in ' +
                'nftables mode cannot hold a prefix this wide: use iptables mode for IPv6.'
              }
              {...switchField('ipv6ByPrefix')}
            >
              <BoundedNumberInput label="IPv6 prefix length" {...boundedField('ipv6Prefix')} maw={280} />
            </SwitchedSection>
          </>
        );
      }}
    </SettingsForm>
  );
}
