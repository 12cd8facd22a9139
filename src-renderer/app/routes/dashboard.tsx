import { Grid } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { paths } from '../../config/paths.ts';
import { useBanCounts } from '../../features/bans/api/get-banned-ips.ts';
import { BanSummaryCard } from '../../features/bans/components/BanSummaryCard.tsx';
import { BouncerStatusCard } from '../../features/bouncers/components/BouncerStatusCard.tsx';
import { CappedOwnBanner } from '../../features/bouncers/components/CappedOwnBanner.tsx';
import { EnforcementBanner } from '../../features/bouncers/components/EnforcementBanner.tsx';
import { LapiLinkCard } from '../../features/crowdsec-link/components/LapiLinkCard.tsx';
import { HealthCard } from '../../features/health/components/HealthCard.tsx';
import { AmiStatusCard } from '../../features/peers/components/AmiStatusCard.tsx';
import { FlaggedAccountsCard } from '../../features/peers/components/FlaggedAccountsCard.tsx';
import { ServerInfoCard } from '../../features/system/components/ServerInfoCard.tsx';

/** Where the Health card sends the technician to act on each kind of check. */
const HEALTH_HREFS = {
  'api-keys': paths.apiKeys,
  settings: paths.settings,
  bans: paths.bans,
  peers: paths.peers,
  audit: paths.audit,
};

/** At a glance: what is failing, where bouncers connect, what is banned, whether bouncers, AMI and the LAPI are alive. */
export function DashboardRoute() {
  const bans = useBanCounts();
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Health, server addresses, active bans, bouncer activity and the Asterisk and LAPI links."
      />
      <EnforcementBanner activeBans={bans.data?.total ?? 0} keysHref={paths.apiKeys} />
      <CappedOwnBanner keysHref={paths.apiKeys} />
      <Grid gap="lg">
        {/* On a phone the Bouncers card comes first: whether the bouncers enforce the bans is what a technician checks
            first; then the Health card. On a wide screen Health spans the top and Bouncers sits beside the bans. */}
        <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 0, lg: 4 }}>
          <BouncerStatusCard />
        </Grid.Col>
        <Grid.Col span={12} order={{ base: 1, lg: 0 }}>
          <HealthCard hrefs={HEALTH_HREFS} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }} order={{ base: 2, lg: 1 }}>
          <ServerInfoCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 3, lg: 2 }}>
          <AmiStatusCard settingsHref={paths.settings} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }} order={{ base: 4, lg: 3 }}>
          <BanSummaryCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 5, lg: 5 }}>
          <LapiLinkCard settingsHref={paths.settings} />
        </Grid.Col>
        <Grid.Col span={12} order={{ base: 6, lg: 6 }}>
          <FlaggedAccountsCard peersHref={paths.peers} />
        </Grid.Col>
      </Grid>
    </>
  );
}
