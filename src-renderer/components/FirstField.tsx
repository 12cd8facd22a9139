import { TextInput, type TextInputProps } from '@mantine/core';

/** A dialog's first field: a required text input that takes the focus when the dialog opens; its change is the text. */
export function FirstField({
  onChange,
  ...props
}: Omit<TextInputProps, 'onChange' | 'required'> & { onChange: (value: string) => void }) {
  return <TextInput required data-autofocus {...props} onChange={(e) => onChange(e.currentTarget.value)} />;
}
