import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey } from './types.ts';

/** DELETE api-keys/{id}: the key stops working and its bouncer cursor is dropped. */
export const deleteApiKey = (id: ApiKey['id']) => callOperation('api-keys.delete', { path: { id } });

export const useDeleteApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<ApiKey[]>(apiKeysKey, (list) => list?.filter((k) => String(k.id) !== String(id)));
      void queryClient.invalidateQueries({ queryKey: apiKeysKey });
    },
  });
};
