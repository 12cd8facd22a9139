import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Body, RecordOf } from '#shared/contract/types.ts';
import { callOperation, listOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';

export type Rule = RecordOf<'NotificationRules'>;
export type RuleBody = Body<'notification-rules.create'>;

export const rulesKey = ['notification-rules', 'list'] as const;

export const getRules = async () =>
  (await listOperation('notification-rules.getList', { query: { limit: 1000 } })).items;

export const useRules = () => useQuery(queryOptions({ queryKey: rulesKey, queryFn: getRules }));

export const saveRule = ({ id, body }: { id?: number; body: RuleBody }) =>
  id === undefined
    ? callOperation('notification-rules.create', { body, quiet: true })
    : callOperation('notification-rules.update', { path: { id }, body, quiet: true });

export const useSaveRule = () => useRefreshingMutation(saveRule, [rulesKey], { waitForRefresh: true });

export const useDeleteRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callOperation('notification-rules.delete', { path: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rulesKey }),
  });
};
