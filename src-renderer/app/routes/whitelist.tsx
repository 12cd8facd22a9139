import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { EffectiveWhitelist } from '../../features/whitelist/components/EffectiveWhitelist.tsx';
import { WhitelistEntriesCard } from '../../features/whitelist/components/WhitelistEntriesCard.tsx';

export function WhitelistRoute() {
  return (
    <>
      <PageHeader
        title="Whitelist"
        description="Addresses that are never banned, why, until when, and the complete list bouncers receive."
      />
      <Stack gap="lg">
        <WhitelistEntriesCard />
        <EffectiveWhitelist />
      </Stack>
    </>
  );
}
