import { Select } from '@mantine/core';
import type { ReactNode } from 'react';

/** One choice of a picker or a radio group. */
export interface Choice<T extends string> {
  value: T;
  label: string;
  description?: ReactNode;
}

/** A picker of one of a fixed list (a format, an address): never empty, its list inside the dialog (see theme.ts). */
export function ChoiceSelect<T extends string>({
  options,
  onChange,
  ...props
}: {
  label: string;
  description?: string;
  options: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <Select
      {...props}
      data={options.map((o) => ({ value: o.value, label: o.label }))}
      onChange={(selected) => selected && onChange(selected as T)}
      allowDeselect={false}
    />
  );
}
