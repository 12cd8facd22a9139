import { TextInput } from '@mantine/core';

/** What a key is for: required on every write, and the dialog's first field. */
export function KeyDescriptionInput({
  value,
  onChange,
  error,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  placeholder?: string;
}) {
  return (
    <TextInput
      label="Description"
      placeholder={placeholder}
      required
      data-autofocus
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
    />
  );
}
