import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { BanService } from './categories.ts';
import { banHistoryKey } from './get-ban-history.ts';
import { banLogKey } from './get-ban-log.ts';
import { bannedIpsKey } from './get-banned-ips.ts';

export interface BanIpInput {
  /** An address or a CIDR. */
  ip: string;
  /** Seconds, a number with a unit ("12h"), or "permanent". */
  duration: number | string;
  reason?: string;
  /** Left out: every service. */
  services?: BanService[];
}

/** firewall:banIp: a manual ban, published to bouncers as pbx/manual (422s are shown under their fields). */
export const banIp = (input: BanIpInput) => api.post<{ ip: string }>('firewall:banIp', input, { quiet: true });

export const useBanIp = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: banIp,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: bannedIpsKey });
      void queryClient.invalidateQueries({ queryKey: banHistoryKey });
      void queryClient.invalidateQueries({ queryKey: banLogKey });
    },
  });
};
