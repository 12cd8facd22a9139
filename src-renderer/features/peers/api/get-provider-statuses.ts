import type { Item } from '#shared/contract/types.ts';
import { callOperation } from '../../../lib/api-client.ts';
import { polledQuery } from '../../../lib/query-hooks.ts';

/** A provider's registration state. */
export type ProviderStatus = Item<'providers.getStatuses'>;

export const providerStatusesKey = ['peers', 'providers'] as const;

/** providers:getStatuses: each provider's registration state. */
export const getProviderStatuses = () => callOperation('providers.getStatuses');

export const useProviderStatuses = polledQuery(providerStatusesKey, getProviderStatuses, 5_000);
