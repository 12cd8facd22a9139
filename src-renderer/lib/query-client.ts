import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** Retries only what may heal by itself (network, 5xx), never a validation or permission error. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      retry: (count, error) => count < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
    },
    mutations: { retry: false },
  },
});
