import type { Answer, Body } from '../../../../src-shared/contract/types.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { authStatusKey } from './get-auth-status.ts';

export type SetPasswordInput = Body<'auth.setPassword'>;

/** auth:setPassword: over loopback no current password is needed; remotely it is. */
export const setPassword = (input: SetPasswordInput) =>
  api.post<Answer<'auth.setPassword'>>('auth:setPassword', input, { quiet: true });

export const useSetPassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authStatusKey }),
  });
};
