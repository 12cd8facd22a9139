// One place for the query, the mutation and the invalidation of a singleton settings resource
// (`fail2ban`, `ami`, `https`, `general-settings`, `crowdsec-link`): each feature declares its own with
// the resource's name and a key; its operations (`<name>.getRecord`, `<name>.patch`) give the types.
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { OPERATIONS } from '#shared/contract/operations.ts';
import type { Body, Result } from '#shared/contract/types.ts';
import { requestOperation, type OperationId } from './api-client.ts';

/** A resource with a GET and a PATCH of the whole collection path: a singleton (no record id). */
type SettingsName = {
  [Op in OperationId]: Op extends `${infer Name}.patch`
    ? `${Name}.getRecord` extends OperationId
      ? (typeof OPERATIONS)[Op]['path'] extends `${string}{${string}`
        ? never
        : Name
      : never
    : never;
}[OperationId];

/** The settings as stored: every readable field of the GET answer (the singleton answers them all). */
export type StoredSettings<Name extends SettingsName> = Result<Extract<`${Name}.getRecord`, OperationId>>;
/** What a save sends: the PATCH body, write-only secrets included. */
export type SettingsInput<Name extends SettingsName> = Body<Extract<`${Name}.patch`, OperationId>>;

export interface SettingsResourceOptions<Name extends SettingsName> {
  /** The v3 singleton, e.g. `fail2ban`. */
  resource: Name;
  /** The query key of the settings; defined once, in the feature that declares the resource. */
  queryKey: QueryKey;
  /** Queries that depend on these settings (a status, a derived list), refreshed after a save. */
  alsoInvalidates?: readonly QueryKey[];
}

/** What a settings form needs of a resource: the stored settings `T` and a save taking `I`. */
export interface SettingsResource<T extends object, I> {
  useSettings: () => UseQueryResult<T>;
  useUpdateSettings: () => UseMutationResult<T, Error, I>;
}

/** A singleton settings resource: GET for the form, PATCH (errors shown inline, so quiet) to save. */
export function settingsResource<Name extends SettingsName>({
  resource,
  queryKey,
  alsoInvalidates = [],
}: SettingsResourceOptions<Name>) {
  // The operation ids are built from `resource`, which SettingsName ties to both; the answers are the record.
  const request = requestOperation as (op: OperationId, input?: object) => Promise<{ data: unknown }>;
  const get = async () => (await request(`${resource}.getRecord`)).data as StoredSettings<Name>;
  const update = async (input: SettingsInput<Name>) =>
    (await request(`${resource}.patch`, { body: input, quiet: true })).data as StoredSettings<Name>;
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
