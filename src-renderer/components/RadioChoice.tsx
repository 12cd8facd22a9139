import { Radio, Stack } from '@mantine/core';
import type { Choice } from './ChoiceSelect.tsx';

/** A radio group over a fixed list of choices, each with its label and, where it needs one, a hint under it. */
export function RadioChoice<T extends string>({
  options,
  onChange,
  ...props
}: {
  label: string;
  options: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  error?: string;
}) {
  return (
    <Radio.Group {...props} onChange={(v) => onChange(v as T)}>
      <Stack gap="xs" mt={6}>
        {options.map((option) => (
          <Radio key={option.value} {...option} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
