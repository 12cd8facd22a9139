import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { crowdsecLinkStatusKey } from './get-crowdsec-link-status.ts';

/** Under the link's status: a save of the settings (alsoInvalidates) counts again. */
const shareCountKey = [...crowdsecLinkStatusKey, 'share-count'] as const;

/** crowdsec-link:shareActiveBans as a dry run: how many bans in force the link would share now. Not audited. */
const shareCountOptions = (enabled: boolean) =>
  queryOptions({
    queryKey: shareCountKey,
    queryFn: () => callOperation('crowdsec-link.shareActiveBans', { body: { dryRun: true }, quiet: true }),
    enabled,
    staleTime: 0,
  });

export const useShareCount = (enabled: boolean) => useQuery(shareCountOptions(enabled));

/** crowdsec-link:shareActiveBans: queues them (once); the status then shows them going up. */
export const useShareActiveBans = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callOperation('crowdsec-link.shareActiveBans', { body: { dryRun: false } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: crowdsecLinkStatusKey }),
  });
};
