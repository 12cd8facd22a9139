import { TextInput } from '@mantine/core';
import { parseLocalInput, zoneName } from '../../../lib/format.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';

/**
 * A bound of the time range, typed as the console writes times everywhere: "2026-11-28 18:00", 24-hour, in the
 * browser's zone (the browser's own picker would follow its locale: mm/dd/yyyy and 12-hour in the US).
 */
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
  const unreadable = value.trim() !== '' && Number.isNaN(parseLocalInput(value));
  return (
    <TextInput
      label={label}
      placeholder="2026-11-28 18:00"
      description={`24-hour, ${zoneName(new Date())}`}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={unreadable ? 'Write it as 2026-11-28 18:00 (24-hour).' : error}
      w={narrow ? '100%' : 210}
    />
  );
}
