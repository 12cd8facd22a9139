import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeysTable } from '../../features/api-keys/components/ApiKeysTable.tsx';
import { useNetworkFilters } from '../../features/network-filters/api/get-filters.ts';
import { NetworkFilterSelect } from '../../features/network-filters/components/NetworkFilterSelect.tsx';
import { useSystemInfo } from '../../features/system/api/get-system-info.ts';

/** API keys, with the network-filter picker and the bouncer api_url supplied from their features. */
export function ApiKeysRoute() {
  const filters = useNetworkFilters();
  const info = useSystemInfo();
  const describeFilter = (id: string) => {
    if (id === 'none') return 'Any address';
    if (id === 'localhost') return 'This computer only';
    const filter = filters.data?.find((f) => String(f.id) === id);
    return filter ? `${filter.permit}${filter.description ? ` (${filter.description})` : ''}` : `Filter #${id}`;
  };
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for bouncers and scripts. Bind each bouncer key to a filter that admits only its host, so a leaked key is useless elsewhere."
      />
      <ApiKeysTable filterField={(props) => <NetworkFilterSelect {...props} />} describeFilter={describeFilter} bouncerApiUrls={info.data?.bouncerApiUrls ?? []} />
    </>
  );
}
