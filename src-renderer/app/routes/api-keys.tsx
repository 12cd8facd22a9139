import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiKeysTable } from '../../features/api-keys/components/ApiKeysTable.tsx';
import { useNetworkFilters } from '../../features/network-filters/api/get-filters.ts';
import { NetworkFilterSelect } from '../../features/network-filters/components/NetworkFilterSelect.tsx';
import { withHost } from '../../features/api-keys/model/bouncer-config.ts';
import { feedApiUrls } from '../../features/api-keys/model/feed-urls.ts';
import { useCertificate } from '../../features/system/api/get-certificate.ts';
import { useSystemInfo, type SystemInfo } from '../../features/system/api/get-system-info.ts';

/**
 * Every api_url a bouncer could use: the server's listening addresses, then loopback for a bouncer
 * on this computer (system:getInfo lists only the addresses other hosts can reach).
 */
function bouncerApiUrls(info: SystemInfo | undefined): string[] {
  const urls = info?.bouncerApiUrls ?? [];
  if (!urls[0]) return [];
  const loopback = withHost(urls[0], '127.0.0.1');
  return [...new Set([...urls, ...(loopback ? [loopback] : [])])];
}

/** API keys, with the network-filter picker and the bouncer api_url choices supplied from their features. */
export function ApiKeysRoute() {
  const filters = useNetworkFilters();
  const info = useSystemInfo();
  const certificate = useCertificate();
  const pinned =
    certificate.data?.enabled && certificate.data.fingerprint256
      ? { fingerprint256: certificate.data.fingerprint256, pem: certificate.data.pem }
      : null;
  const describeFilter = (id: string) => {
    if (id === 'none') return 'Any address';
    if (id === 'localhost') return 'This computer only';
    const filter = filters.data?.find((f) => String(f.id) === id);
    if (filters.isPending) return '…';
    // A binding to a deleted filter fails closed: say so instead of naming a filter that is gone.
    return filter
      ? `${filter.permit}${filter.description ? ` (${filter.description})` : ''}`
      : 'Deleted filter: refused from every address (Edit to choose another)';
  };
  const apiUrls = bouncerApiUrls(info.data);
  const feedUrlsFor = (id: string) => feedApiUrls(apiUrls, id, filters.data?.find((f) => String(f.id) === id)?.permit);
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          'Keys for bouncers and scripts. Bind each bouncer key to a filter that admits only its ' +
          'host, so a leaked key is useless elsewhere.'
        }
      />
      <ApiKeysTable
        filterField={(props) => <NetworkFilterSelect {...props} />}
        describeFilter={describeFilter}
        bouncerApiUrls={apiUrls}
        feedUrlsFor={feedUrlsFor}
        certificate={pinned}
      />
    </>
  );
}
