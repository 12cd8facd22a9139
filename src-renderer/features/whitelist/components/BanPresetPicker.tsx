import { NativeSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { BAN_PRESETS, type PresetChoice } from '../api/fail2ban-settings.ts';

const PRESET_OPTIONS = [
  ...Object.entries(BAN_PRESETS).map(([value, p]) => ({ value, label: p.label })),
  { value: 'custom', label: 'Custom' },
];

/** The MikoPBX preset: segments on a wide screen, a select on a phone; "Custom" once any value differs. */
export function BanPresetPicker({
  preset,
  onChoose,
  error,
}: {
  preset: PresetChoice;
  onChoose: (choice: string) => void;
  error?: string;
}) {
  const narrow = useNarrowScreen();
  return (
    <Stack gap={4}>
      {narrow ? (
        <NativeSelect
          label="Preset"
          value={preset}
          onChange={(e) => onChoose(e.currentTarget.value)}
          data={PRESET_OPTIONS}
          error={error}
        />
      ) : (
        <>
          <Text size="sm" fw={500} id="preset-label">
            Preset
          </Text>
          <SegmentedControl
            aria-labelledby="preset-label"
            value={preset}
            onChange={onChoose}
            data={PRESET_OPTIONS}
            data-testid="ban-preset"
          />
        </>
      )}
      <Text size="xs" c="dimmed">
        Weak: 20 failures in 10 min, 10 min ban. Normal: 10 in 1 h, 1 day. Enhanced: 5 in 6 h, 7 days. Paranoid: 3 in 24
        h, 30 days. Each also turns on a slow window (weak: 40 in 24 h, 1 day; normal: 20 in 24 h, 7 days; enhanced: 10
        in 3 days, 30 days; paranoid: 6 in 7 days, 90 days). Any other value is Custom.
      </Text>
    </Stack>
  );
}
