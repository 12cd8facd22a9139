import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** A required password box bound to a string: the sign-in and password forms' fields. */
export function PasswordField({
  onChange,
  ...props
}: Omit<PasswordInputProps, 'value' | 'onChange' | 'required'> & { value: string; onChange: (value: string) => void }) {
  return <PasswordInput required {...props} onChange={(event) => onChange(event.currentTarget.value)} />;
}
