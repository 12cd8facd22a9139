import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startTokenSession } from '../../../lib/auth-session.ts';

export interface LoginInput {
  login: string;
  password: string;
}

interface TokenAnswer {
  accessToken: string;
  expiresIn: number;
  login?: string;
}

/** auth:login: the access token stays in memory; the refresh cookie is set by the server. */
export const login = (input: LoginInput) =>
  api.post<TokenAnswer>('auth:login', input, { anonymous: true, quiet: true });

export const useLogin = () =>
  useMutation({
    mutationFn: login,
    onSuccess: (token, input) => startTokenSession({ ...token, login: token.login ?? input.login }),
  });
