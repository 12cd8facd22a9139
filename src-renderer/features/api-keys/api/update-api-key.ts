import { callOperation } from '../../../lib/api-client.ts';
import { useRefreshingMutation } from '../../../lib/query-hooks.ts';
import { apiKeysKey } from './get-api-keys.ts';
import type { ApiKey, ApiKeyEdit } from './types.ts';

/** PATCH api-keys/{id}: description, binding and expiry (the description is required on every verb). */
export const updateApiKey = ({ id, changes }: { id: ApiKey['id']; changes: ApiKeyEdit }) =>
  callOperation('api-keys.patch', { path: { id }, body: changes, quiet: true });

export const useUpdateApiKey = () => useRefreshingMutation(updateApiKey, [apiKeysKey], { waitForRefresh: true });
