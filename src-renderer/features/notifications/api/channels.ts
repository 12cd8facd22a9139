import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Body, RecordOf } from '#shared/contract/types.ts';
import { callOperation, listOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';

export type Channel = RecordOf<'NotificationChannels'>;
export type ChannelBody = Body<'notification-channels.create'>;

export const channelsKey = ['notification-channels', 'list'] as const;

/** GET notification-channels: every channel (a handful) with its last result. */
export const getChannels = async () =>
  (await listOperation('notification-channels.getList', { query: { limit: 1000 } })).items;

/** Polled while the page shows, so a test's result appears without a reload. */
export const useChannels = () =>
  useQuery(queryOptions({ queryKey: channelsKey, queryFn: getChannels, refetchInterval: 5_000 }));

/** POST or PATCH (a PATCH keeps the stored secret when none is typed). Errors show under their fields. */
export const saveChannel = ({ id, body }: { id?: number; body: ChannelBody }) =>
  id === undefined
    ? callOperation('notification-channels.create', { body, quiet: true })
    : callOperation('notification-channels.patch', { path: { id }, body, quiet: true });

export const useSaveChannel = () => useRefreshingMutation(saveChannel, [channelsKey], { waitForRefresh: true });

export const useDeleteChannel = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callOperation('notification-channels.delete', { path: { id } }),
    // Its rules go with it.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: channelsKey }),
        queryClient.invalidateQueries({ queryKey: ['notification-rules'] }),
      ]),
  });
};

/** POST notification-channels/{id}:sendTest: queued on the server; the result shows in lastResult. */
export const useSendTest = () =>
  useRefreshingMutation(
    (id: number) => callOperation('notification-channels.sendTest', { path: { id }, body: {} }),
    [channelsKey],
  );
