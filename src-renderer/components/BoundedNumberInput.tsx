import { NumberInput, Text } from '@mantine/core';

/**
 * A whole number with the server's bounds shown under it. Nothing is clamped: a value out of bounds
 * is sent as typed and the server's 422 shows under the field. Empty is NaN, never a silent 0.
 * With `unit` ("days"), the unit is written after the number and the bounds.
 */
export function BoundedNumberInput({
  label,
  description,
  min,
  max,
  unit,
  value,
  onChange,
  error,
  disabled,
  maw,
}: {
  label: string;
  description?: string;
  /** The server's bounds. */
  min: number;
  max: number;
  /** What the number counts, when it is not obvious from the label. */
  unit?: string;
  value: number;
  onChange: (value: number) => void;
  error?: string;
  disabled?: boolean;
  maw?: number;
}) {
  const bounds = `From ${min.toLocaleString('en')} to ${max.toLocaleString('en')}${unit ? ` ${unit}` : ''}.`;
  return (
    <NumberInput
      label={label}
      description={description ? `${description} ${bounds}` : bounds}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      value={Number.isNaN(value) ? '' : value}
      onChange={(typed) => onChange(typed === '' ? NaN : Number(typed))}
      error={error}
      disabled={disabled}
      maw={maw}
      // The unit takes the place of the step buttons; arrow keys still step.
      {...(unit && {
        rightSection: (
          <Text size="sm" c="dimmed" aria-hidden>
            {unit}
          </Text>
        ),
        rightSectionWidth: 52,
      })}
    />
  );
}
