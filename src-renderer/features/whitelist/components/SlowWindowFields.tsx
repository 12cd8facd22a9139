import { Stack, Switch, Text } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { BoundedNumberInput } from '../../../components/BoundedNumberInput.tsx';
import { DurationInput } from '../../../components/DurationInput.tsx';

/** A bounded field as `boundedField` of the settings form gives it. */
interface Bounded {
  min: number;
  max: number;
  value: number;
  onChange: (value: number) => void;
  error?: string;
}

/**
 * The slow window, shown beside the normal one: a second rule over a longer window with its own
 * ban, so a slow brute force (one guess every few minutes) is banned too. Its fields show while on.
 */
export function SlowWindowFields({
  enabled,
  maxretry,
  findtime,
  bantime,
}: {
  enabled: { checked: boolean; onChange: (event: ChangeEvent<HTMLInputElement>) => void };
  maxretry: Bounded;
  findtime: Bounded;
  bantime: Bounded;
}) {
  return (
    <Stack gap="sm" data-testid="slow-window">
      <Text size="sm" fw={500}>
        Slow window
      </Text>
      <Switch
        label="Also ban slow guessing"
        description="A second count over a longer window, for attackers who stay under the normal one."
        {...enabled}
      />
      {enabled.checked && (
        <>
          <BoundedNumberInput label="Slow: failures before a ban" {...maxretry} />
          <DurationInput
            label="Slow: counting window"
            description="Longer than the normal counting window."
            units={['h', 'd']}
            {...findtime}
          />
          <DurationInput label="Slow: ban duration" {...bantime} />
        </>
      )}
    </Stack>
  );
}
