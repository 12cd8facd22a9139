import type { Answer, Body } from '../../../../src-shared/contract/types.ts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startTokenSession } from '../../../lib/auth-session.ts';

export type LoginInput = Pick<Body<'auth.login'>, 'login' | 'password'>;

/** auth:login: the access token stays in memory; the refresh cookie is set by the server. */
export const login = (input: LoginInput) =>
  api.post<Answer<'auth.login'>>('auth:login', input, { anonymous: true, quiet: true });

export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onSuccess: (token, input) => startTokenSession({ ...token, login: token.login ?? input.login }),
  });
