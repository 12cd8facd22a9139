import { PageHeader } from '../../components/PageHeader.tsx';
import { useApiKeys } from '../../features/api-keys/api/get-api-keys.ts';
import { useUpdateApiKey } from '../../features/api-keys/api/update-api-key.ts';
import type { KeyBinding } from '../../features/network-filters/components/DeleteFilterDialog.tsx';
import { NetworkFiltersTable } from '../../features/network-filters/components/NetworkFiltersTable.tsx';

/** Network filters, with the API keys bound to each (from the api-keys feature) so a filter in use is never deleted from under them. */
export function NetworkFiltersRoute() {
  const keys = useApiKeys();
  const update = useUpdateApiKey();
  const binding: KeyBinding = {
    usedBy: (filterId) => (keys.data ?? []).filter((k) => k.networkfilterid === filterId),
    moveKeys: async (bound, to) => {
      for (const { id } of bound) {
        const key = (keys.data ?? []).find((k) => String(k.id) === String(id));
        if (!key) continue;
        await update.mutateAsync({
          id: key.id,
          changes: { description: key.description, networkfilterid: to, expires_at: key.expires_at ?? null },
        });
      }
    },
  };
  return (
    <>
      <PageHeader
        title="Network filters"
        description={
          'Firewall rules per network: which services (SIP, the web console, AMI, IAX) it may reach, ' +
          'whether it is trusted (never banned), which addresses every bouncer blocks, and which API ' +
          'keys are bound to it.'
        }
      />
      <NetworkFiltersTable binding={binding} />
    </>
  );
}
