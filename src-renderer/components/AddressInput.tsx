import { TextInput } from '@mantine/core';

/** The "Address or network" field of the ban and whitelist dialogs: required, focused first, its error under the hint. */
export function AddressInput({
  description,
  placeholder,
  value,
  onChange,
  error,
}: {
  description: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <TextInput
      label="Address or network"
      description={description}
      placeholder={placeholder}
      required
      data-autofocus
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
