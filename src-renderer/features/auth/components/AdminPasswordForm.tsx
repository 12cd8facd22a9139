import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../../components/FormError.tsx';
import { fieldErrors } from '../../../lib/field-errors.ts';
import { useAuthStatus } from '../api/get-auth-status.ts';
import { useSetPassword } from '../api/set-password.ts';
import { PasswordField } from './PasswordField.tsx';

const MIN_LENGTH = 8;

/** Sets or changes the administrator password used for remote sign-in. */
export function AdminPasswordForm() {
  const status = useAuthStatus();
  const setPassword = useSetPassword();
  const [current, setCurrent] = useState('');
  const [password, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const viaLocalhost = status.data?.viaLocalhost ?? false;
  const needsCurrent = !viaLocalhost && (status.data?.adminPasswordSet ?? true);

  const serverErrors = fieldErrors(setPassword.error, ['currentPassword', 'password'] as const);
  const tooShort = password.length > 0 && password.length < MIN_LENGTH ? `At least ${MIN_LENGTH} characters.` : null;
  const mismatch = confirm.length > 0 && confirm !== password ? 'The two passwords differ.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (password.length < MIN_LENGTH || confirm !== password) return;
    setPassword.mutate(
      { password, ...(needsCurrent ? { currentPassword: current } : {}) },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            title: 'Password saved',
            message: 'Use it to sign in from other computers.',
          });
          setCurrent('');
          setNewPassword('');
          setConfirm('');
          setTouched(false);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Administrator password">
      <Stack maw={420}>
        <Text size="sm" c="dimmed">
          {status.data?.adminPasswordSet
            ? 'The password for the "admin" login, needed when the console is opened from another computer.'
            : 'No password is set yet: remote sign-in is refused until you set one.'}
        </Text>
        {needsCurrent && (
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={current}
            onChange={(value) => {
              setPassword.reset();
              setCurrent(value);
            }}
            error={serverErrors.byField.currentPassword}
          />
        )}
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={password}
          onChange={setNewPassword}
          error={
            tooShort ??
            (touched && password.length < MIN_LENGTH ? `At least ${MIN_LENGTH} characters.` : null) ??
            serverErrors.byField.password
          }
          description={`At least ${MIN_LENGTH} characters.`}
        />
        <PasswordField
          label="Repeat the new password"
          autoComplete="new-password"
          value={confirm}
          onChange={setConfirm}
          error={mismatch}
        />
        <FormError messages={serverErrors.other} />
        <Group>
          <Button type="submit" loading={setPassword.isPending}>
            {status.data?.adminPasswordSet ? 'Change password' : 'Set password'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
