import { Alert, Anchor, Card, Group, Table, Tabs, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconPlugConnectedX, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { QueryState } from '../../../components/QueryState.tsx';
import { paths } from '../../../config/paths.ts';
import { linkProps } from '../../../lib/router.ts';
import { usePeerStatuses } from '../api/get-peer-statuses.ts';
import { useAmiStatus } from '../api/get-ami-status.ts';
import { useExtensions } from '../api/get-extensions.ts';
import { useProviderStatuses } from '../api/get-provider-statuses.ts';
import { PeerStateBadge } from './PeerStateBadge.tsx';

const text = (value: unknown) => (value === undefined || value === null || value === '' ? '—' : String(value));

function ExtensionsTable({ search }: { search: string }) {
  const peers = usePeerStatuses();
  const extensions = useExtensions();
  const names = new Map((extensions.data ?? []).map((e) => [String(e.number), e.username]));
  const list = (peers.data ?? []).filter((p) => `${p.id} ${names.get(p.id) ?? ''} ${p.state}`.toLowerCase().includes(search.trim().toLowerCase()));
  return (
    <QueryState
      query={peers}
      label="extensions"
      isEmpty={list.length === 0}
      empty={{
        title: peers.data?.length ? 'No extension matches' : 'No extensions',
        hint: peers.data?.length ? 'Clear the search.' : 'Extensions are created through the API (`extensions`).',
      }}
    >
      <Table.ScrollContainer minWidth={560}>
        <Table striped highlightOnHover verticalSpacing="sm" aria-label="Extensions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Extension</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>
                <VisuallyHidden>Detail</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((p) => (
              <Table.Tr key={p.id} data-testid="extension-row">
                <Table.Td>
                  <Anchor {...linkProps(paths.peer(p.id))} ff="monospace" fw={600}>
                    {p.id}
                  </Anchor>
                </Table.Td>
                <Table.Td>{text(names.get(p.id))}</Table.Td>
                <Table.Td>
                  <PeerStateBadge state={p.state} />
                </Table.Td>
                <Table.Td ta="right">
                  <Anchor {...linkProps(paths.peer(p.id))} size="sm" aria-label={`Contact detail of extension ${p.id}`}>
                    Contact detail
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </QueryState>
  );
}

function ProvidersTable({ search }: { search: string }) {
  const providers = useProviderStatuses();
  const list = (providers.data ?? []).filter((p) => JSON.stringify(p).toLowerCase().includes(search.toLowerCase()));
  return (
    <QueryState
      query={providers}
      label="providers"
      isEmpty={list.length === 0}
      empty={{
        title: providers.data?.length ? 'No provider matches' : 'No providers',
        hint: providers.data?.length ? 'Clear the search.' : 'SIP trunks are created through the API (`providers`).',
      }}
    >
      <Table.ScrollContainer minWidth={560}>
        <Table striped verticalSpacing="sm" aria-label="Providers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Provider</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>User</Table.Th>
              <Table.Th>Host</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((p) => (
              <Table.Tr key={p.id} data-testid="provider-row">
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {text(p.description || p.id)}
                  </Text>
                  {p.description ? (
                    <Text size="xs" c="dimmed" ff="monospace">
                      {p.id}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <PeerStateBadge state={p.state} />
                </Table.Td>
                <Table.Td ff="monospace">{text(p.username)}</Table.Td>
                <Table.Td ff="monospace">{text(p.host)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </QueryState>
  );
}

/** Extensions and providers with their live state, refreshed every 5 seconds. */
export function PeersOverview({ settingsHref }: { settingsHref?: string }) {
  const [search, setSearch] = useState('');
  const ami = useAmiStatus();
  const amiDown = ami.data !== undefined && !(ami.data.enabled && ami.data.connected);
  const peers = usePeerStatuses();
  const providers = useProviderStatuses();
  return (
    <Card withBorder radius="md" padding="lg">
      {amiDown && (
        <Alert color="yellow" variant="light" icon={<IconPlugConnectedX size={18} />} mb="md" title={ami.data?.enabled ? 'Asterisk manager disconnected' : 'Asterisk manager not configured'}>
          States below are not live: extensions show UNKNOWN and providers OFF until the AMI connection is up.{' '}
          {settingsHref && (
            <Anchor {...linkProps(settingsHref)} size="sm">
              Check the AMI connection in Settings.
            </Anchor>
          )}
        </Alert>
      )}
      <Tabs defaultValue="extensions" keepMounted={false}>
        <Group justify="space-between" mb="md" wrap="wrap">
          <Tabs.List>
            <Tabs.Tab value="extensions">Extensions ({peers.data?.length ?? '…'})</Tabs.Tab>
            <Tabs.Tab value="providers">Providers ({providers.data?.length ?? '…'})</Tabs.Tab>
          </Tabs.List>
          <TextInput aria-label="Search peers" placeholder="Search" leftSection={<IconSearch size={16} />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={220} />
        </Group>
        <Tabs.Panel value="extensions">
          <ExtensionsTable search={search} />
        </Tabs.Panel>
        <Tabs.Panel value="providers">
          <ProvidersTable search={search} />
        </Tabs.Panel>
      </Tabs>
      <Text size="xs" c="dimmed" mt="sm">
        Live states from the Asterisk manager, refreshed every 5 seconds.
      </Text>
    </Card>
  );
}
