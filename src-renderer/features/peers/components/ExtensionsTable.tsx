import { Anchor, Button, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { DataTable } from '../../../components/DataTable.tsx';
import { paths } from '../../../config/paths.ts';
import { linkProps } from '../../../lib/router.ts';
import { useDialogTarget } from '../../../lib/use-dialog-target.ts';
import { useExtensions, type Extension } from '../api/get-extensions.ts';
import { usePeerStatuses, type PeerStatus } from '../api/get-peer-statuses.ts';
import { useDeleteExtension } from '../api/save-extension.ts';
import { ExtensionFormModal } from './ExtensionFormModal.tsx';
import { PeerStateBadge } from './PeerStateBadge.tsx';
import { textOrDash as text } from './text-or-dash.ts';

/** The extensions with their live state, and their creation, edit and deletion. */
export function ExtensionsTable() {
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
