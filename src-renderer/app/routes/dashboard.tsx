import { Card, Grid, Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { paths } from '../../config/paths.ts';
import { BouncerStatusCard } from '../../features/bouncers/components/BouncerStatusCard.tsx';
import { AmiStatusCard } from '../../features/peers/components/AmiStatusCard.tsx';
import { ServerInfoCard } from '../../features/system/components/ServerInfoCard.tsx';

// The bans card carries the chart library (the largest part of this screen): it arrives after the
// other cards, so the first screen is usable before it.
const BanSummaryCard = lazy(() => import('../../features/bans/components/BanSummaryCard.tsx').then((m) => ({ default: m.BanSummaryCard })));

/** At a glance: where bouncers connect, what is banned, whether bouncers and AMI are alive. */
export function DashboardRoute() {
  return (
    <>
      <PageHeader title="Dashboard" description="Server addresses, active bans, bouncer activity and the Asterisk connection." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <ServerInfoCard />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <AmiStatusCard settingsHref={paths.settings} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Suspense
            fallback={
              <Card withBorder padding="lg" radius="md" aria-label="Active bans (loading)">
                <Skeleton height={320} />
              </Card>
            }
          >
            <BanSummaryCard />
          </Suspense>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <BouncerStatusCard />
        </Grid.Col>
      </Grid>
    </>
  );
}
