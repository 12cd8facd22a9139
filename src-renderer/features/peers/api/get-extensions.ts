import type { RecordOf } from '#shared/contract/types.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { listOperation } from '../../../lib/api-client.ts';

export type Extension = RecordOf<'Extensions'>;

export const extensionsKey = ['peers', 'extension-records'] as const;

/** GET extensions: names to show beside the live states (they change rarely). */
export const getExtensions = async () => (await listOperation('extensions.getList', { query: { limit: 1000 } })).items;

export const extensionsQueryOptions = () =>
  queryOptions({ queryKey: extensionsKey, queryFn: getExtensions, staleTime: 60_000 });

export const useExtensions = () => useQuery(extensionsQueryOptions());
