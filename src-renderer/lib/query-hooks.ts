import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  useQuery,
  type QueryKey,
} from '@tanstack/react-query';
import { listOperation, type OperationId, type QueryOf, type ResultItem } from './api-client.ts';

/** A GET operation polled every `refetchInterval` ms while a screen shows it: the hook of its one query. */
export const polledQuery =
  <T>(queryKey: QueryKey, queryFn: () => Promise<T>, refetchInterval: number) =>
  () =>
    useQuery(queryOptions({ queryKey, queryFn, refetchInterval }));

/**
 * A mutation that refreshes the queries under `refreshes` once it succeeds. With `waitForRefresh` it stays
 * pending until they are read again (the caller's onSuccess then sees the fresh data).
 */
export function useRefreshingMutation<I, O>(
  mutationFn: (input: I) => Promise<O>,
  refreshes: readonly QueryKey[],
  { waitForRefresh = false } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      const refreshed = Promise.all(refreshes.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (waitForRefresh) await refreshed;
    },
  });
}

/** One page of a log filtered on the server (a list operation): its rows, and how many match over every page. */
export async function getLogPage<Op extends OperationId>(
  operationId: Op,
  query: QueryOf<Op>,
): Promise<{ rows: ResultItem<Op>[]; total: number }> {
  // Every log operation takes only a query (no path parameter, no body).
  const list = listOperation as (
    op: Op,
    input: { query: QueryOf<Op> },
  ) => Promise<{ items: ResultItem<Op>[]; pagination?: { total?: number } }>;
  const { items, pagination } = await list(operationId, { query });
  return { rows: items, total: pagination?.total ?? items.length };
}

/** A page of a log under `key`, polled every 30 s (or `refetchInterval`); the page on screen stays while the next one loads. */
export const useLogPage = <F, R>(
  key: QueryKey,
  filter: F,
  getPage: (filter: F) => Promise<R>,
  refetchInterval = 30_000,
) =>
  useQuery({
    queryKey: [...key, filter],
    queryFn: () => getPage(filter),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
