import { Alert, Anchor, Card, Tabs, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { linkProps } from '../../../lib/router.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { useAmiStatus } from '../api/get-ami-status.ts';
import { usePhoneProtection } from '../api/get-phone-protection.ts';
import { usePeerStatuses } from '../api/get-peer-statuses.ts';
import { useProviderStatuses } from '../api/get-provider-statuses.ts';
import { ExtensionsTable } from './ExtensionsTable.tsx';
import { ProtectedAddressesTable } from './ProtectedAddressesTable.tsx';
import { ProvidersTable } from './ProvidersTable.tsx';

/** Extensions and providers with their live state, refreshed every 5 seconds. */
export function PeersOverview({ settingsHref }: { settingsHref?: string }) {
  const ami = useAmiStatus();
  const amiDown = ami.data !== undefined && !(ami.data.enabled && ami.data.connected);
  const peers = usePeerStatuses();
  const providers = useProviderStatuses();
  const protection = usePhoneProtection();
  // On a phone the rows are cards already: a narrow frame leaves them room.
  const narrow = useNarrowScreen();
  return (
    <Card withBorder radius="md" padding={narrow ? 'sm' : 'lg'}>
      {amiDown && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconPlugConnectedX size={18} />}
          mb="md"
          title={ami.data?.enabled ? 'Asterisk manager disconnected' : 'Asterisk manager not configured'}
        >
          States below are not live: extensions show UNKNOWN and providers OFF until the AMI connection is up.{' '}
          {settingsHref && (
            <Anchor {...linkProps(settingsHref)} size="sm" underline="always" c="inherit" fw={600}>
              Check the AMI connection in Settings.
            </Anchor>
          )}
        </Alert>
      )}
      <Tabs defaultValue="extensions" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="extensions">Extensions ({peers.data?.length ?? '…'})</Tabs.Tab>
          <Tabs.Tab value="providers">Providers ({providers.data?.length ?? '…'})</Tabs.Tab>
          <Tabs.Tab value="protected">Protected addresses ({protection.data?.addresses.length ?? '…'})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="extensions">
          <ExtensionsTable />
        </Tabs.Panel>
        <Tabs.Panel value="providers">
          <ProvidersTable />
        </Tabs.Panel>
        <Tabs.Panel value="protected">
          <ProtectedAddressesTable />
        </Tabs.Panel>
      </Tabs>
      <Text size="xs" c="dimmed" mt="sm">
        Live states from the Asterisk manager, refreshed every 5 seconds.
      </Text>
    </Card>
  );
}
