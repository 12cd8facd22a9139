import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { requireLogin } from '../../../lib/auth-session.ts';

/** auth:logout revokes the refresh token; the console forgets its access token either way. */
export const logout = () => callOperation('auth.logout', { quiet: true });

export const useLogout = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      requireLogin('You are signed out.');
      queryClient.clear();
    },
  });
};
