import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';
import { SettingsForm } from '../../../components/SettingsForm.tsx';
import { useSettingsForm } from '../../../lib/use-settings-form.ts';
import {
  BAN_PRESETS,
  FAIL2BAN_BOUNDS,
  fail2banSettings,
  presetOf,
  RULE_CATEGORIES,
  type PresetChoice,
} from '../api/fail2ban-settings.ts';
import { BanPresetPicker } from './BanPresetPicker.tsx';
import { PresetConfirmDialog } from './PresetConfirmDialog.tsx';
import { CategoryRulesTable, type CategoryValues } from './CategoryRulesTable.tsx';
import { RepeatOffenderFields } from './RepeatOffenderFields.tsx';
import { SlowWindowFields } from './SlowWindowFields.tsx';
import { FIELDS, toInput, toValues } from './rules-form-values.ts';

/** A category row with no value of its own: every number falls back to the global one. */
const EMPTY_RULE = {
  ...{ maxretry: NaN, findtime: NaN, bantime: NaN },
  ...{ slowMaxretry: NaN, slowFindtime: NaN, slowBantime: NaN },
};
import { SwitchedSection } from './SwitchedSection.tsx';

/**
 * Ban rules: a MikoPBX preset or custom numbers, the slow window beside the normal one, each
 * service's own rule, longer bans for repeat offenders (fail2ban's bantime.increment), IPv6 counted
 * by prefix, whole subnets banned once several of their addresses are (neighbourhood escalation),
 * and registered phones never cut off.
 */
export function Fail2banSettingsForm() {
  const form = useSettingsForm(fail2banSettings, {
    toValues,
    toInput,
    fields: FIELDS,
    saved: { title: 'Ban rules saved', message: 'New bans use them at once.' },
    bounds: FAIL2BAN_BOUNDS,
  });
  const { errors, set, setValues, boundedField, switchField } = form;
  const [pending, setPending] = useState<Exclude<PresetChoice, 'custom'> | null>(null);
  // The services with values of their own, which a preset would clear.
  const ownRules = RULE_CATEGORIES.filter((c) =>
    Object.values(form.values?.categories[c.value] ?? {}).some((v) => Number.isFinite(v)),
  ).map((c) => c.label);
  const choosePreset = (choice: string) => {
    if (choice === 'custom') return;
    if (ownRules.length) setPending(choice as Exclude<PresetChoice, 'custom'>);
    else applyPreset(choice as Exclude<PresetChoice, 'custom'>);
  };
  const applyPreset = (choice: Exclude<PresetChoice, 'custom'>) => {
    setPending(null);
    const preset = BAN_PRESETS[choice];
    setValues(
      (current) =>
        current && {
          ...current,
          maxretry: preset.maxretry,
          findtime: preset.findtime,
          bantime: preset.bantime,
          slowWindow: true,
          slowMaxretry: preset.slowMaxretry,
          slowFindtime: preset.slowFindtime,
          slowBantime: preset.slowBantime,
          categories: Object.fromEntries(RULE_CATEGORIES.map((c) => [c.value, { ...EMPTY_RULE }])) as CategoryValues,
        },
    );
  };
  return (
    <SettingsForm form={form} label="ban rules" name="Ban rules" submitLabel="Save ban rules" maw={880}>
      {(values) => {
        const preset = presetOf(values, values.categories);
        return (
          <>
            <BanPresetPicker preset={preset} onChoose={choosePreset} error={errors.byField.preset} />
            <PresetConfirmDialog
              preset={pending && BAN_PRESETS[pending].label}
              services={ownRules}
              onConfirm={() => pending && applyPreset(pending)}
              onCancel={() => setPending(null)}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
              <Stack gap="sm" data-testid="normal-window">
                <Text size="sm" fw={500}>
                  Normal window
                </Text>
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
              </Stack>
              <SlowWindowFields
                enabled={switchField('slowWindow')}
                maxretry={boundedField('slowMaxretry')}
                findtime={boundedField('slowFindtime')}
                bantime={boundedField('slowBantime')}
              />
            </SimpleGrid>
            <BoundedNumberInput
              label="Max requests per second"
              description="Per address, on the web interface."
              maw={420}
              {...boundedField('PBXFirewallMaxReqSec')}
            />
            {(['normal', 'slow'] as const)
              .filter((window) => window === 'normal' || values.slowWindow)
              .map((window) => (
                <CategoryRulesTable
                  key={window}
                  window={window}
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
              ))}
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
            <SwitchedSection
              title="Neighbourhood escalation"
              label="Ban the whole subnet when several of its addresses are banned"
              description={
                'Scanners step through a subnet one address at a time. When this many addresses of one ' +
                'subnet are banned for the same service within the window, one subnet ban replaces their ' +
                'single bans. A subnet holding a whitelisted, trusted or loopback address, or a registered ' +
                'phone, keeps single bans.'
              }
              {...switchField('escalation')}
            >
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <BoundedNumberInput label="Banned addresses that trigger it" {...boundedField('escalationBans')} />
                <DurationInput label="Within" units={['min', 'h', 'd']} {...boundedField('escalationWindow')} />
                <BoundedNumberInput
                  label="IPv4 subnet size (prefix)"
                  description="24: 256 addresses, x.y.z.0 to x.y.z.255."
                  {...boundedField('escalationIpv4Prefix')}
                />
                <BoundedNumberInput
                  label="IPv6 subnet size (prefix)"
                  description="48: one site, as providers assign it."
                  {...boundedField('escalationIpv6Prefix')}
                />
              </SimpleGrid>
            </SwitchedSection>
            <SwitchedSection
              title="Registered phones"
              label="Never ban an address with registered phones"
              description={
                'An office behind one address keeps its phones when one of them has a stale password: the ' +
                'failing account is flagged on the Dashboard instead of a ban.'
              }
              {...switchField('protectRegistered')}
            >
              <BoundedNumberInput
                label="Minutes protected after the last phone leaves"
                {...boundedField('registeredLingerMinutes')}
                maw={320}
              />
            </SwitchedSection>
          </>
        );
      }}
    </SettingsForm>
  );
}
