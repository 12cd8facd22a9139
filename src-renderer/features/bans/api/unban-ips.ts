import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { afterUnban } from './unban-ip.ts';

/** firewall:unbanIps: lifts the bans of up to 1000 addresses (or manual range bans) in one transaction. */
export const unbanIps = (ips: string[]) => callOperation('firewall.unbanIps', { body: { ips } });

export const useUnbanIps = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unbanIps, onSuccess: (_answer, ips) => afterUnban(queryClient, ips) });
};
