import type { Body } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { authStatusKey } from './get-auth-status.ts';

export type SetPasswordInput = Body<'auth.setPassword'>;

/** auth:setPassword: over loopback no current password is needed; remotely it is. */
export const setPassword = (input: SetPasswordInput) => callOperation('auth.setPassword', { body: input, quiet: true });

export const useSetPassword = () => useRefreshingMutation(setPassword, [authStatusKey], { waitForRefresh: true });
