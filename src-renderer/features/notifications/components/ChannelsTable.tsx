import { Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable, type DataTableColumn } from '../../../components/DataTable.tsx';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useChannels, useDeleteChannel, useSendTest, type Channel } from '../api/channels.ts';
import { channelTarget, typeLabel } from '../model/channel-form.ts';
import { ChannelFormModal } from './ChannelFormModal.tsx';
import { LastResult } from './LastResult.tsx';

const columns: DataTableColumn<Channel>[] = [
  {
    header: 'Channel',
    card: 'title',
    render: (c) => (
      <Text fw={600} size="sm">
        {c.name}
      </Text>
    ),
  },
  {
    header: 'Sends by',
    render: (c) => (
      <Text size="sm">
        {typeLabel(c.type)}
        {c.enabled ? '' : ' (off)'}
      </Text>
    ),
  },
  {
    header: 'To',
    render: (c) => (
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
        {channelTarget(c)}
      </Text>
    ),
  },
  { header: 'Last result', card: 'wide', render: (c) => <LastResult result={c.lastResult} /> },
];

/** The channels, each with "Send a test" and its last result. */
export function ChannelsTable() {
  const channels = useChannels();
  const sendTest = useSendTest();
  const remove = useDeleteChannel();
  const deleting = useDialogTarget<Channel>();
  const [editing, setEditing] = useState<Channel | undefined>();
  const [formOpened, form] = useDisclosure(false);
  const openForm = (channel?: Channel) => {
    setEditing(channel);
    form.open();
  };
  const test = (channel: Channel) =>
    sendTest.mutate(channel.id, {
      onSuccess: () =>
        notifications.show({
          color: 'blue',
          title: 'Test queued',
          message: `A test message is on its way to ${channel.name}; its result shows under Last result.`,
        }),
    });

  return (
    <>
      <Group justify="flex-end" mb="md">
        <Button leftSection={<IconPlus size={16} />} onClick={() => openForm()}>
          New channel
        </Button>
      </Group>
      <DataTable
        label="Notification channels"
        noun="channels"
        query={channels}
        columns={columns}
        row={{
          label: (c) => c.name,
          testId: 'channel-row',
          actions: (c) => [
            { label: 'Send a test', icon: <IconSend size={16} />, onClick: () => test(c) },
            { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => openForm(c) },
            { label: 'Delete', icon: <IconTrash size={16} />, onClick: () => deleting.open(c), color: 'red' },
          ],
        }}
        frame={{ minWidth: 760 }}
        empty={{
          title: 'No channels',
          hint: 'Add an e-mail, webhook, ntfy or syslog channel, then a rule saying which checks go there.',
        }}
      />
      <ChannelFormModal opened={formOpened} onClose={form.close} channel={editing} />
      <ConfirmDialog
        dialog={deleting}
        title={(c) => `Delete channel ${c.name}?`}
        message={() => 'Its rules are deleted with it; nothing more is sent there.'}
        confirmLabel="Delete channel"
        loading={remove.isPending}
        onConfirm={(c) => remove.mutateAsync(c.id)}
      />
    </>
  );
}
