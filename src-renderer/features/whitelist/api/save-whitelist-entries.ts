import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestOperation } from '../../../lib/api-client.ts';
import { fail2banKey, type WhitelistEntry } from './fail2ban-settings.ts';
import { effectiveWhitelistKey } from './get-effective-whitelist.ts';

/**
 * PATCH fail2ban `whitelistEntries` (the whole list): the answer's notices say which bans the new
 * entries lifted, and which wider bans were carved around them.
 */
export async function saveWhitelistEntries(entries: WhitelistEntry[]) {
  const { data, notices } = await requestOperation('fail2ban.patch', {
    body: { whitelistEntries: entries },
    quiet: true,
  });
  return { settings: data, notices };
}

export const useSaveWhitelistEntries = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWhitelistEntries,
    onSuccess: ({ settings }) => {
      queryClient.setQueryData(fail2banKey, settings);
      void queryClient.invalidateQueries({ queryKey: effectiveWhitelistKey });
    },
  });
};
