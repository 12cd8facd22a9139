import type { Answer } from '../../../../src-shared/contract/types.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { bouncerStatusKey } from './get-bouncer-status.ts';

/** firewall:unbanIp for a refused bouncer host, so it is served at its next poll. */
export const unbanBouncerHost = (ip: string) => api.post<Answer<'firewall.unbanIp'>>('firewall:unbanIp', { ip });

export const useUnbanBouncerHost = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unbanBouncerHost,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: bouncerStatusKey });
      // The bans feature's lists are keyed under 'bans'; refresh them without importing that feature.
      void queryClient.invalidateQueries({ queryKey: ['bans'] });
    },
  });
};
