import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { effectiveWhitelistKey } from './get-effective-whitelist.ts';

export interface Fail2banSettings {
  maxretry: number;
  bantime: number;
  findtime: number;
  /** IPs or CIDRs separated by spaces or commas. */
  whitelist: string;
  PBXFirewallMaxReqSec: number;
}

export const fail2banKey = ['settings', 'fail2ban'] as const;

/** The `fail2ban` singleton: ban thresholds and the operator whitelist. */
export const getFail2ban = () => api.get<Fail2banSettings>('fail2ban');

export const fail2banQueryOptions = () => queryOptions({ queryKey: fail2banKey, queryFn: getFail2ban });

export const useFail2ban = () => useQuery(fail2banQueryOptions());

export const updateFail2ban = (input: Partial<Fail2banSettings>) => api.patch<Fail2banSettings>('fail2ban', input, { quiet: true });

export const useUpdateFail2ban = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFail2ban,
    onSuccess: (saved) => {
      if (saved && typeof saved === 'object') queryClient.setQueryData(fail2banKey, saved);
      void queryClient.invalidateQueries({ queryKey: fail2banKey });
      void queryClient.invalidateQueries({ queryKey: effectiveWhitelistKey });
    },
  });
};
