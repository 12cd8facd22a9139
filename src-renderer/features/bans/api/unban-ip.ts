import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { banHistoryKey } from './get-ban-history.ts';
import { bannedIpsKey, type BannedIp } from './get-banned-ips.ts';

/** firewall:unbanIp: lifts every ban of that address; bouncers get `deleted` on their next poll. */
export const unbanIp = (ip: string) => api.post<unknown>('firewall:unbanIp', { ip });

export const useUnbanIp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unbanIp,
    onSuccess: (_answer, ip) => {
      queryClient.setQueryData<BannedIp[]>(bannedIpsKey, (list) => list?.filter((ban) => ban.ip !== ip));
      void queryClient.invalidateQueries({ queryKey: bannedIpsKey });
      void queryClient.invalidateQueries({ queryKey: banHistoryKey });
    },
  });
};
