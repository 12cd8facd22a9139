import { Select } from '@mantine/core';
import { useNarrowScreen } from '../lib/use-narrow-screen.ts';

/** A list's filter: the empty value ("every …") first, then the options; it cannot be left empty. */
export function FilterSelect<T extends string>({
  label,
  every,
  options,
  value,
  onChange,
  width,
}: {
  label: string;
  /** The label of the empty value, which filters nothing ("Every kind"). */
  every: string;
  options: readonly { value: T; label: string }[];
  value: '' | T;
  onChange: (value: '' | T) => void;
  /** The width on a wide screen; on a phone the picker takes the whole width. */
  width: number;
}) {
  const narrow = useNarrowScreen();
  return (
    <Select
      label={label}
      data={[{ value: '', label: every }, ...options.map((o) => ({ value: o.value, label: o.label }))]}
      value={value}
      onChange={(selected) => onChange((selected ?? '') as '' | T)}
      allowDeselect={false}
      w={narrow ? '100%' : width}
    />
  );
}
