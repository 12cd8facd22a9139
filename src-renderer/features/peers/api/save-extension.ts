import type { Body } from '#shared/contract/types.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { extensionsKey } from './get-extensions.ts';
import { peerStatusesKey } from './get-peer-statuses.ts';

/** The extension form's values, sent as they are (an empty secret is left out of an edit). */
export type ExtensionInput = Required<Pick<Body<'extensions.create'>, 'number' | 'username' | 'callerid' | 'secret'>>;

/** POST extensions, or PATCH extensions/{number} (without the secret when it is left empty). Errors show under their fields. */
export function saveExtension({ input, existing }: { input: ExtensionInput; existing?: string }) {
  if (existing === undefined) return callOperation('extensions.create', { body: input, quiet: true });
  const { number: _number, secret, ...rest } = input;
  return callOperation('extensions.patch', {
    path: { id: existing },
    body: secret ? { ...rest, secret } : rest,
    quiet: true,
  });
}

/** DELETE extensions/{number}. */
export const deleteExtension = (number: string) => callOperation('extensions.delete', { path: { id: number } });

/** Saves or deletes, then refreshes the names and the live states. */
function useExtensionMutation<T>(mutationFn: (arg: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: extensionsKey }),
        queryClient.invalidateQueries({ queryKey: peerStatusesKey }),
      ]),
  });
}

export const useSaveExtension = () => useExtensionMutation(saveExtension);
export const useDeleteExtension = () => useExtensionMutation(deleteExtension);
