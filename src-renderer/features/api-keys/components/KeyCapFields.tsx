import { Checkbox, Stack, Text } from '@mantine/core';
import { CAP_PRESETS, ENTRY_CAP_MAX, ENTRY_CAP_MIN, type CapPreset } from '#shared/key-caps.ts';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { ChoiceSelect } from '../../../components/ChoiceSelect.tsx';

/** What the dialog holds of a key's cap: the device preset, the number for "custom", aggregation. */
export interface CapChoice {
  preset: CapPreset;
  /** The number typed for a custom cap (NaN while empty). */
  custom: number;
  aggregate: boolean;
}

export const NO_CAP: CapChoice = { preset: 'none', custom: NaN, aggregate: false };

/** The choice as the key record stores it. */
export const capChoiceOf = (key: {
  cap_preset?: string;
  entry_cap?: number | null;
  aggregate?: boolean;
}): CapChoice => ({
  preset: (CAP_PRESETS.some((p) => p.id === key.cap_preset) ? key.cap_preset : 'none') as CapPreset,
  custom: key.entry_cap ?? NaN,
  aggregate: key.aggregate ?? false,
});

/** The body fields for the choice: a device preset sends its name (the server sets its number). */
export const capBody = (choice: CapChoice) => ({
  cap_preset: choice.preset,
  ...(choice.preset === 'custom' ? { entry_cap: choice.custom } : {}),
  aggregate: choice.aggregate,
});

const number = (n: number) => n.toLocaleString('en');
const OPTIONS = CAP_PRESETS.map((p) => ({
  value: p.id,
  label: p.cap === null ? p.label : `${p.label}: ${number(p.cap)} entries`,
}));

/**
 * The device limit of a bouncer or router-feed key: small routers break on big lists, so the key
 * receives at most that many entries, its own bans first. Each preset says where its number comes from.
 */
export function KeyCapFields({
  value,
  onChange,
  errors,
}: {
  value: CapChoice;
  onChange: (value: CapChoice) => void;
  errors: { entry_cap?: string; cap_preset?: string; aggregate?: string };
}) {
  const preset = CAP_PRESETS.find((p) => p.id === value.preset)!;
  return (
    <Stack gap="xs">
      <ChoiceSelect
        label="Device limit"
        description="At most this many entries reach the device: intrusion bans first, then manual bans, filter entries, other sites' bans."
        options={OPTIONS}
        value={value.preset}
        onChange={(next) => onChange({ ...value, preset: next })}
      />
      <Text size="xs" c="dimmed" data-testid="cap-source">
        {preset.source}
      </Text>
      {errors.cap_preset && (
        <Text size="sm" c="red">
          {errors.cap_preset}
        </Text>
      )}
      {value.preset === 'custom' && (
        <BoundedNumberInput
          label="Entries at most"
          min={ENTRY_CAP_MIN}
          max={ENTRY_CAP_MAX}
          value={value.custom}
          onChange={(custom) => onChange({ ...value, custom })}
          error={errors.entry_cap}
        />
      )}
      <Checkbox
        label="Merge neighbouring addresses into networks (fewer entries on the device)"
        checked={value.aggregate}
        onChange={(e) => onChange({ ...value, aggregate: e.currentTarget.checked })}
        error={errors.aggregate}
      />
    </Stack>
  );
}
