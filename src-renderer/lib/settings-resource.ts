// One place for the query, the mutation and the invalidation of a singleton settings resource
// (`fail2ban`, `ami`, `https`, `general-settings`): each feature declares its own with a path and a key.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from './api-client.ts';

export interface SettingsResourceOptions {
  /** The v3 resource, e.g. `fail2ban`. */
  path: string;
  /** The query key of the settings; defined once, in the feature that declares the resource. */
  queryKey: QueryKey;
  /** Queries that depend on these settings (a status, a derived list), refreshed after a save. */
  alsoInvalidates?: readonly QueryKey[];
}

/** A singleton settings resource: GET for the form, PATCH (errors shown inline, so quiet) to save. */
export function settingsResource<T extends object>({ path, queryKey, alsoInvalidates = [] }: SettingsResourceOptions) {
  const get = () => api.get<T>(path);
  const update = (input: Partial<T>) => api.patch<T>(path, input, { quiet: true });
  const options = () => queryOptions({ queryKey, queryFn: get });
  return {
    queryKey,
    get,
    update,
    queryOptions: options,
    useSettings: () => useQuery(options()),
    useUpdateSettings: () => {
      const queryClient = useQueryClient();
      return useMutation({
        mutationFn: update,
        onSuccess: (saved) => {
          // The answer is the stored record: show it at once; without one, read it again.
          if (saved && typeof saved === 'object') queryClient.setQueryData(queryKey, saved);
          else void queryClient.invalidateQueries({ queryKey });
          for (const key of alsoInvalidates) void queryClient.invalidateQueries({ queryKey: key });
        },
      });
    },
  };
}

export type SettingsResource<T extends object> = ReturnType<typeof settingsResource<T>>;
