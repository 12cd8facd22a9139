import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { banHistoryKey } from './get-ban-history.ts';
import { banLogKey } from './get-ban-log.ts';
import { bannedIpsKey, bannedIpsPageKey, type BannedIpsPage } from './get-banned-ips.ts';

/** After an unban: drop the lifted rows at once, then refresh the list, the chart and the history. */
export function afterUnban(queryClient: QueryClient, ips: readonly string[]) {
  const lifted = new Set(ips);
  queryClient.setQueriesData<BannedIpsPage>(
    { queryKey: bannedIpsPageKey },
    (page) => page && { ...page, rows: page.rows.filter((ban) => !lifted.has(ban.ip)) },
  );
  void queryClient.invalidateQueries({ queryKey: bannedIpsKey });
  void queryClient.invalidateQueries({ queryKey: banHistoryKey });
  void queryClient.invalidateQueries({ queryKey: banLogKey });
}

/** firewall:unbanIp: lifts every ban of that address (or a manual range ban); bouncers get `deleted` on their next poll. */
export const unbanIp = (ip: string) => callOperation('firewall.unbanIp', { body: { ip } });

export const useUnbanIp = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unbanIp, onSuccess: (_answer, ip) => afterUnban(queryClient, [ip]) });
};
