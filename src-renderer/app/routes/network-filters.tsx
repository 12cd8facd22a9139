import { PageHeader } from '../../components/PageHeader.tsx';
import { NetworkFiltersTable } from '../../features/network-filters/components/NetworkFiltersTable.tsx';

export function NetworkFiltersRoute() {
  return (
    <>
      <PageHeader
        title="Network filters"
        description="Which networks may reach SIP, the web console, AMI and IAX; trusted networks that are never banned; networks blocked for every bouncer."
      />
      <NetworkFiltersTable />
    </>
  );
}
