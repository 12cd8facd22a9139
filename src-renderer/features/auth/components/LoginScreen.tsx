import { Alert, Button, Center, Paper, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle, IconShieldLock } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useLogin } from '../api/login.ts';
import { PasswordField } from './PasswordField.tsx';

/** Shown to remote browsers without a valid session. */
export function LoginScreen({
  notice,
  adminPasswordSet,
}: {
  notice: string | null;
  adminPasswordSet: boolean | undefined;
}) {
  const [loginName, setLoginName] = useState('admin');
  const [password, setPassword] = useState('');
  const login = useLogin();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ login: loginName.trim(), password });
  };
  const error = login.error?.message;

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Paper withBorder shadow="md" p="xl" radius="md" w="100%" maw={400} component="main">
        <form onSubmit={submit} aria-labelledby="login-title" noValidate>
          <Stack>
            <Stack gap={6} align="center">
              <ThemeIcon size={48} radius="xl" variant="light">
                <IconShieldLock size={26} />
              </ThemeIcon>
              <Title order={1} size="h3" id="login-title">
                Sign in to PBX Console
              </Title>
              <Text size="sm" c="dimmed" ta="center">
                You are connecting from another computer, so the administrator password is required.
              </Text>
            </Stack>
            {notice && (
              <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
                {notice}
              </Alert>
            )}
            {adminPasswordSet === false && (
              <Alert
                variant="light"
                color="yellow"
                icon={<IconAlertTriangle size={18} />}
                title="No administrator password yet"
              >
                Set one in Settings from the PBX host itself (http://127.0.0.1), or start the server with
                PBX_ADMIN_PASSWORD.
              </Alert>
            )}
            <TextInput
              label="Login"
              autoComplete="username"
              required
              value={loginName}
              onChange={(e) => setLoginName(e.currentTarget.value)}
            />
            <PasswordField
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={setPassword}
              error={error}
              data-autofocus
              autoFocus
            />
            <Button type="submit" loading={login.isPending} disabled={!password} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
