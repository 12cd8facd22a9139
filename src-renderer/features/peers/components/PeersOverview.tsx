import { Alert, Anchor, Button, Card, Code, Group, Tabs, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlugConnectedX, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { paths } from '../../../config/paths.ts';
import { linkProps } from '../../../lib/router.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useNarrowScreen } from '../../../lib/use-narrow-screen.ts';
import { useAmiStatus } from '../api/get-ami-status.ts';
import { useExtensions, type Extension } from '../api/get-extensions.ts';
import { useDeleteExtension } from '../api/save-extension.ts';
import { ExtensionFormModal } from './ExtensionFormModal.tsx';
import { usePeerStatuses, type PeerStatus } from '../api/get-peer-statuses.ts';
import { useProviderStatuses, type ProviderStatus } from '../api/get-provider-statuses.ts';
import { PeerStateBadge } from './PeerStateBadge.tsx';

const text = (value: unknown) => (value === undefined || value === null || value === '' ? '—' : String(value));

function ExtensionsTable() {
  const peers = usePeerStatuses();
  const extensions = useExtensions();
  const remove = useDeleteExtension();
  const records = new Map((extensions.data ?? []).map((e) => [String(e.number), e]));
  const [formOpened, form] = useDisclosure(false);
  const [editing, setEditing] = useState<Extension | undefined>();
  const deleting = useDialogTarget<Extension>();
  const openForm = (extension?: Extension) => {
    setEditing(extension);
    form.open();
  };
  return (
    <>
      <Group justify="flex-end" mb="sm">
        <Button leftSection={<IconPlus size={16} />} onClick={() => openForm()}>
          New extension
        </Button>
      </Group>
      <DataTable<PeerStatus>
        label="Extensions"
        noun="extensions"
        frame={{ card: false, minWidth: 560 }}
        query={peers}
        row={{
          label: (p) => `extension ${p.id}`,
          testId: 'extension-row',
          actions: (p) => {
            const record = records.get(p.id);
            if (!record) return [];
            return [
              { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => openForm(record) },
              { label: 'Delete', icon: <IconTrash size={16} />, onClick: () => deleting.open(record), color: 'red' },
            ];
          },
        }}
        search={{
          label: 'Search extensions',
          placeholder: 'Search number, name, state',
          text: (p) => `${p.id} ${records.get(p.id)?.username ?? ''} ${p.state}`,
        }}
        columns={[
          {
            header: 'Extension',
            card: 'title',
            render: (p) => (
              <Anchor {...linkProps(paths.peer(p.id))} ff="monospace" fw={600}>
                {p.id}
              </Anchor>
            ),
          },
          {
            header: 'Name',
            render: (p) => text(records.get(p.id)?.username),
          },
          { header: 'State', render: (p) => <PeerStateBadge state={p.state} /> },
          {
            header: 'Detail',
            card: 'hidden',
            render: (p) => (
              <Anchor {...linkProps(paths.peer(p.id))} size="sm" aria-label={`Contact detail of extension ${p.id}`}>
                Contact detail
              </Anchor>
            ),
          },
        ]}
        empty={{
          title: 'No extensions',
          hint: 'Add the phones of this PBX: a number, the user’s name and the SIP password the phone registers with.',
          action: (
            <Button mt="sm" leftSection={<IconPlus size={16} />} onClick={() => openForm()}>
              Add the first extension
            </Button>
          ),
        }}
      />
      <ExtensionFormModal opened={formOpened} onClose={form.close} extension={editing} />
      <ConfirmDialog
        dialog={deleting}
        title={(e) => `Delete extension ${e.number}?`}
        message={(e) =>
          `${e.username} can no longer register or call with ${e.number}. Its record and password are removed.`
        }
        confirmLabel="Delete extension"
        loading={remove.isPending}
        onConfirm={(e) =>
          remove
            .mutateAsync(e.number)
            .then(() =>
              notifications.show({ color: 'teal', title: 'Extension deleted', message: `${e.number} ${e.username}` }),
            )
        }
      />
    </>
  );
}

function ProvidersTable() {
  const providers = useProviderStatuses();
  return (
    <DataTable<ProviderStatus>
      label="Providers"
      noun="providers"
      frame={{ card: false, minWidth: 560 }}
      query={providers}
      row={{ testId: 'provider-row' }}
      search={{
        label: 'Search providers',
        placeholder: 'Search name, user, host, state',
        text: (p) => `${p.id} ${p.description ?? ''} ${p.username ?? ''} ${p.host ?? ''} ${p.state}`,
      }}
      columns={[
        {
          header: 'Provider',
          card: 'title',
          render: (p) => (
            <>
              <Text size="sm" fw={600}>
                {text(p.description || p.id)}
              </Text>
              {p.description ? (
                <Text size="xs" c="dimmed" ff="monospace" fw={400}>
                  {p.id}
                </Text>
              ) : null}
            </>
          ),
        },
        { header: 'State', render: (p) => <PeerStateBadge state={p.state} /> },
        { header: 'User', mono: true, render: (p) => text(p.username) },
        { header: 'Host', mono: true, render: (p) => text(p.host) },
      ]}
      empty={{
        title: 'No providers',
        hint: (
          <>
            SIP trunks are created through the API (<Code>providers</Code>).
          </>
        ),
      }}
    />
  );
}

/** Extensions and providers with their live state, refreshed every 5 seconds. */
export function PeersOverview({ settingsHref }: { settingsHref?: string }) {
  const ami = useAmiStatus();
  const amiDown = ami.data !== undefined && !(ami.data.enabled && ami.data.connected);
  const peers = usePeerStatuses();
  const providers = useProviderStatuses();
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
        </Tabs.List>
        <Tabs.Panel value="extensions">
          <ExtensionsTable />
        </Tabs.Panel>
        <Tabs.Panel value="providers">
          <ProvidersTable />
        </Tabs.Panel>
      </Tabs>
      <Text size="xs" c="dimmed" mt="sm">
        Live states from the Asterisk manager, refreshed every 5 seconds.
      </Text>
    </Card>
  );
}
