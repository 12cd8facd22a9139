import { PageHeader } from '../../components/PageHeader.tsx';
import { paths } from '../../config/paths.ts';
import { PeerDetail } from '../../features/peers/components/PeerDetail.tsx';
import { PeersOverview } from '../../features/peers/components/PeersOverview.tsx';

export function PeersRoute() {
  return (
    <>
      <PageHeader title="Peers" description="Extensions and SIP providers with their live state from Asterisk." />
      <PeersOverview settingsHref={paths.settings} />
    </>
  );
}

export function PeerRoute({ id }: { id: string }) {
  return (
    <>
      <PageHeader
        title={`Extension ${id}`}
        description="The registered contact of this extension, refreshed every 5 seconds."
      />
      <PeerDetail id={id} />
    </>
  );
}
