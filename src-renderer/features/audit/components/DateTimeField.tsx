import { TextInput } from '@mantine/core';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';

/** A bound of the time range, in the browser's zone. */
export function DateTimeField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const narrow = useNarrowScreen();
  return (
    <TextInput
      type="datetime-local"
      label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      w={narrow ? '100%' : 210}
    />
  );
}
