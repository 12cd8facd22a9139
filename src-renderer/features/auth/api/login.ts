import type { Body } from '#shared/contract/types.ts';
import { useMutation } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { startTokenSession } from '../../../lib/auth-session.ts';

export type LoginInput = Pick<Body<'auth.login'>, 'login' | 'password'>;

/** auth:login: the access token stays in memory; the refresh cookie is set by the server. */
export const login = (input: LoginInput) => callOperation('auth.login', { body: input, anonymous: true, quiet: true });

export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onSuccess: (token, input) => startTokenSession({ ...token, login: token.login ?? input.login }),
  });
