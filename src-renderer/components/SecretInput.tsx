import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * A write-only secret of a settings form (a password, a key): the server never sends it back, so the
 * field starts empty and an empty field keeps the stored one.
 */
export function SecretInput(props: PasswordInputProps) {
  return (
    <PasswordInput
      autoComplete="new-password"
      placeholder="unchanged"
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      {...props}
    />
  );
}
