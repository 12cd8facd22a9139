import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { networkFiltersKey } from './get-filters.ts';
import type { NetworkFilter } from './types.ts';

/** DELETE firewall/{id}: its deny entries leave the decision stream on the next poll. */
/** A 409 (keys still bound to it) is shown in the dialog, so the request is quiet. */
export const deleteNetworkFilter = (id: number) => callOperation('firewall.delete', { path: { id }, quiet: true });

export const useDeleteNetworkFilter = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNetworkFilter,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<NetworkFilter[]>(networkFiltersKey, (list) => list?.filter((f) => f.id !== id));
      void queryClient.invalidateQueries({ queryKey: networkFiltersKey });
    },
  });
};
