import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { useAuthStatus } from '../features/auth/api/get-auth-status.ts';
import { LoginScreen } from '../features/auth/components/LoginScreen.tsx';
import { ApiError } from '../lib/api-client.ts';
import { refreshAccessToken, requireLogin, useAuthSession, enterLocalhostMode } from '../lib/auth-session.ts';

/**
 * Decides how this browser talks to the server: over loopback it uses the localhost bypass; from
 * anywhere else it resumes a session from the refresh cookie or shows the login screen.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  const session = useAuthSession();
  const noStatusEndpoint = status.error instanceof ApiError && status.error.status === 404;

  useEffect(() => {
    if (session.mode !== 'checking') return;
    if (status.data?.viaLocalhost || noStatusEndpoint) enterLocalhostMode();
    else if (status.data) void refreshAccessToken().then((ok) => ok || requireLogin());
  }, [status.data, noStatusEndpoint, session.mode]);

  if (status.isError && !noStatusEndpoint) {
    return (
      <Center mih="100vh" p="md">
        <Alert color="red" title="The server cannot be reached" maw={440}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">Check that PBX Console is running on this address, then retry.</Text>
            <Button size="xs" onClick={() => void status.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }
  if (session.mode === 'checking') {
    return (
      <Center mih="100vh">
        <Loader role="status" aria-live="polite" aria-label="Connecting" />
      </Center>
    );
  }
  if (session.mode === 'login-required')
    return <LoginScreen notice={session.notice} adminPasswordSet={status.data?.adminPasswordSet} />;
  return <>{children}</>;
}
