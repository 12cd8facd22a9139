import { Grid } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { paths } from '../../config/paths.ts';
import { useBanCounts } from '../../features/bans/api/get-banned-ips.ts';
import { BanSummaryCard } from '../../features/bans/components/BanSummaryCard.tsx';
import { BouncerStatusCard } from '../../features/bouncers/components/BouncerStatusCard.tsx';
import { EnforcementBanner } from '../../features/bouncers/components/EnforcementBanner.tsx';
import { AmiStatusCard } from '../../features/peers/components/AmiStatusCard.tsx';
import { ServerInfoCard } from '../../features/system/components/ServerInfoCard.tsx';

/** At a glance: where bouncers connect, what is banned, whether bouncers and AMI are alive. */
export function DashboardRoute() {
  const bans = useBanCounts();
  return (
    <>
      <PageHeader
        title="Dashboard"
        description="Server addresses, active bans, bouncer activity and the Asterisk connection."
      />
      <EnforcementBanner activeBans={bans.data?.total ?? 0} keysHref={paths.apiKeys} />
      <Grid gap="lg">
        {/* First on a phone (and first read): whether the bouncers enforce the bans is what a technician checks
            first. On a wide screen it keeps its place beside the bans. */}
        <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 0, lg: 4 }}>
          <BouncerStatusCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }} order={{ base: 1, lg: 1 }}>
          <ServerInfoCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 2, lg: 2 }}>
          <AmiStatusCard settingsHref={paths.settings} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }} order={{ base: 3, lg: 3 }}>
          <BanSummaryCard />
        </Grid.Col>
      </Grid>
    </>
  );
}
