import type { Body } from '#shared/contract/types.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestOperation } from '../../../lib/api-client.ts';
import { afterUnban } from './unban-ip.ts';

export type UnbanAndWhitelistInput = Body<'firewall.unbanAndWhitelist'>;

/**
 * firewall:unbanAndWhitelist: lifts every ban inside the address or range and whitelists it, in one
 * step and one audit entry. Notices say what was lifted.
 */
export async function unbanAndWhitelist(input: UnbanAndWhitelistInput) {
  const { data, notices } = await requestOperation('firewall.unbanAndWhitelist', {
    body: input,
    quiet: true,
  });
  return { ...data, notices };
}

export const useUnbanAndWhitelist = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unbanAndWhitelist,
    onSuccess: (answer, input) => afterUnban(queryClient, [...new Set([input.ip, ...answer.lifted.map((b) => b.ip)])]),
  });
};
