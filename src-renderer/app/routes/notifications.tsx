import { Stack, Title } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ChannelsTable } from '../../features/notifications/components/ChannelsTable.tsx';
import { RulesTable } from '../../features/notifications/components/RulesTable.tsx';

/** Notifications: where health messages go (channels) and which go where (rules). */
export function NotificationsRoute() {
  return (
    <>
      <PageHeader
        title="Notifications"
        description={
          'Get told when something needs you: a bouncer stops polling, Asterisk is unreachable, an attack ' +
          'surges. Channels say where messages go; rules say which checks go to which channel, from which ' +
          'severity, and how often.'
        }
      />
      <Stack gap="xl">
        <section aria-labelledby="channels-title">
          <Title order={2} size="h3" id="channels-title" mb="sm">
            Channels
          </Title>
          <ChannelsTable />
        </section>
        <section aria-labelledby="rules-title">
          <Title order={2} size="h3" id="rules-title" mb="sm">
            Rules
          </Title>
          <RulesTable />
        </section>
      </Stack>
    </>
  );
}
