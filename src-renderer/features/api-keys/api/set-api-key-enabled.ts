import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey } from './types.ts';

/**
 * PATCH api-keys/{id} with `enabled`: a disabled key gets 401 on every request (bouncer export
 * included) until it is enabled again; the record, its value and its cursor stay.
 */
export const setApiKeyEnabled = ({ key, enabled }: { key: ApiKey; enabled: boolean }) =>
  callOperation('api-keys.patch', { path: { id: key.id }, body: { description: key.description, enabled } });

export const useSetApiKeyEnabled = () =>
  useRefreshingMutation(setApiKeyEnabled, [apiKeysKey], { waitForRefresh: true });
