import type { Answer, Body } from '../../../../src-shared/contract/types.ts';
import { api } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { authStatusKey } from './get-auth-status.ts';

export type SetPasswordInput = Body<'auth.setPassword'>;

/** auth:setPassword: over loopback no current password is needed; remotely it is. */
export const setPassword = (input: SetPasswordInput) =>
  api.post<Answer<'auth.setPassword'>>('auth:setPassword', input, { quiet: true });

export const useSetPassword = () => useRefreshingMutation(setPassword, [authStatusKey], { waitForRefresh: true });
