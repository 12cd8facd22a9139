import type { Answer, Body } from '#shared/contract/types.ts';
import type { BanListFormat } from '#shared/formats.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestOperation } from '../../../lib/api-client.ts';
import { banHistoryKey } from './get-ban-history.ts';
import { banLogKey } from './get-ban-log.ts';
import { bannedIpsKey } from './get-banned-ips.ts';

/** The list formats firewall:importBans reads (and firewall:exportBans writes). */
export const BAN_LIST_FORMATS = [
  { value: 'values', label: 'One address or CIDR per line (cscli values)' },
  { value: 'opnsense', label: 'OPNsense: address, CIDR or a-b range, then a description' },
  { value: 'csv', label: 'CSV with a header (cscli: value,duration,reason,scope,type)' },
  { value: 'json', label: 'JSON (cscli: [{"value", "duration", "reason", ...}])' },
] as const satisfies readonly { value: BanListFormat; label: string }[];
export type { BanListFormat };

/** The body of firewall:importBans; the console always sends `dryRun` as a boolean (the server also takes 0/1). */
export type ImportBansInput = Omit<Body<'firewall.importBans'>, 'dryRun'> & { dryRun: boolean };

/** What an import did, or would do (dry run), with the lines skipped or carved as never banned (`messages.warning`). */
export type ImportOutcome = Answer<'firewall.importBans'> & { warnings: string[] };

/** firewall:importBans: all or nothing; a 422 lists every refused line (shown in the dialog). */
export async function importBans(input: ImportBansInput): Promise<ImportOutcome> {
  const { data, notices } = await requestOperation('firewall.importBans', { body: input, quiet: true });
  return { ...data, warnings: notices.warning };
}

export const useImportBans = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importBans,
    onSuccess: (outcome) => {
      if (outcome.dryRun) return;
      void queryClient.invalidateQueries({ queryKey: bannedIpsKey });
      void queryClient.invalidateQueries({ queryKey: banHistoryKey });
      void queryClient.invalidateQueries({ queryKey: banLogKey });
    },
  });
};
