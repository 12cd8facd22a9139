import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useLogout } from '../api/logout.ts';

/** Ends the remote session: revokes the refresh token and returns to the login screen. */
export function SignOutButton() {
  const logout = useLogout();
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<IconLogout size={14} />}
      loading={logout.isPending}
      onClick={() => logout.mutate()}
    >
      Sign out
    </Button>
  );
}
